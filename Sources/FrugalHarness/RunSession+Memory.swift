import Foundation
import FrugalCore
import FrugalProbe

/// The memory steps: `memoryWarning(level)` (the simulated signal), `pressure(limit)` (the
/// workload's cgroup limit, real reclaim) and `balloon(bytes)` (a hog in the same cgroup);
/// the kernel's pressure events forwarded as warnings; OOM detection at the end.
extension RunSession {
    /// Sends a warning and samples the process's memory from outside just before, 100 ms and
    /// 1 s after. Blocks for about 1 s.
    func deliverWarning(_ level: MemoryWarningLevel, origin: String, sequence: Int) -> (WarningDelivery, String?) {
        Self.deliverWarning(level, origin: origin, sequence: sequence, to: (process, sampler), memory: memory,
                            programSignal: isBlackBox ? programMemoryWarningSignal : nil)
    }

    /// The delivery itself, on whatever thread calls it: it touches only the process and sampler
    /// it is given (each locked inside) and the memory record (locked), never the session's state.
    /// `programSignal`: the signal a black-box program gets as its warning (nil: a control message).
    static func deliverWarning(_ level: MemoryWarningLevel, origin: String, sequence: Int, to current: (process: any AppProcess, sampler: ProcSampler),
                               memory: MemoryPressure, programSignal: Int32?) -> (WarningDelivery, String?) {
        let (process, sampler) = current
        // `normal` asks nothing of the app: it is sent without the samples around it.
        let measured = level != .normal
        let before = measured ? sampler.sampleNow()?.memory : nil
        let time = MonotonicClock.now()
        var problem: String?
        if let signal = programSignal {
            // A black-box program's warning is a signal to its main process (a wrapper gets it).
            if level != .normal {
                do {
                    try SystemCall.retrying("kill", subject: "\(process.pid)") { Glibc.kill(process.pid, signal) }
                } catch {
                    problem = "could not send signal \(signal) to pid \(process.pid): \(error)"
                }
            }
        } else {
            do {
                try process.send(ControlMessage(sequence: sequence, command: .memoryWarning, argument: level.rawValue))
            } catch {
                problem = "could not deliver the memory warning: \(error)"
            }
        }
        var delivery = WarningDelivery(sequence: sequence, level: level, origin: origin, time: time, atDelivery: before)
        if problem == nil && measured {
            _ = process.waitForExit(until: time + 100_000_000)
            delivery.after100ms = sampler.sampleNow()?.memory
            _ = process.waitForExit(until: time + 1_000_000_000)
            delivery.after1s = sampler.sampleNow()?.memory
        }
        memory.record(delivery)
        return (delivery, problem)
    }

    /// Starts forwarding the kernel's pressure events to the app, after spawn. The monitor's
    /// callback runs on another queue: it reads the current process from `currentProcess` (a
    /// locked box the session thread publishes at each spawn), never the session's own variables.
    func startMemoryMonitoring() {
        let current = currentProcess
        let memory = memory
        let programSignal = isBlackBox ? programMemoryWarningSignal : nil
        memory.startMonitoring { [weak memory] level, origin in
            memory?.deliverAsync { [weak memory] in
                guard let memory, let target = current.value, !target.process.hasExited else { return }
                _ = Self.deliverWarning(level, origin: origin, sequence: memory.forwardedSequence(), to: target, memory: memory,
                                        programSignal: programSignal)
            }
        }
    }

    func memoryWarning(_ level: MemoryWarningLevel, index: Int, start: UInt64) {
        sequence += 1
        let sent = sequence
        var (_, problem) = deliverWarning(level, origin: "scenario", sequence: sent)
        if problem == nil && !reader.waitForAck(sent, until: start + Self.nanoseconds(options.inputTimeout)) {
            problem = process.hasExited ? "the workload exited before handling the memory warning" : "the memory warning was not handled in time"
        }
        record(.memoryWarning(level: level), index: index, start: start, problem: problem)
    }

    func pressure(limit: Int, index: Int, start: UInt64) {
        guard let cgroup = memory.cgroup else {
            // Without a cgroup the real part cannot run: deliver the simulated critical warning.
            sequence += 1
            let (_, problem) = deliverWarning(.critical, origin: "scenario (pressure simulated: no cgroup)", sequence: sequence)
            record(.pressure(limitBytes: limit), index: index, start: start,
                   problem: "no memory cgroup, a critical warning was simulated instead" + (problem.map { "; " + $0 } ?? ""))
            return
        }
        let change = cgroup.setLimit(limit)
        memory.record(change)
        record(.pressure(limitBytes: limit), index: index, start: start, problem: change.appliedBytes == nil ? change.note : nil)
    }

    func balloon(bytes: Int, index: Int, start: UInt64) {
        guard let cgroup = memory.cgroup else {
            record(.balloon(bytes: bytes), index: index, start: start,
                   problem: "no memory cgroup: a hog outside one would pressure the whole machine, so none was started")
            return
        }
        do {
            // oom_score_adj 0 against the workload's 1000: the workload is the one the kernel takes.
            let hog = try ChildProcess(arguments: [options.workloadHost, Self.balloonArgument, String(bytes)], environment: [:],
                                       cgroupProcs: cgroup.balloonProcsPaths, oomScoreAdjustment: 0)
            memory.addBalloon(hog)
            let ready = EventStreamReader(fd: hog.eventFD)
            // The hog closes its event pipe once every page is touched (or it dies).
            ready.waitForEnd(until: start + Self.nanoseconds(10))
            record(.balloon(bytes: bytes), index: index, start: start,
                   problem: hog.hasExited ? "the balloon was killed before it filled (the OOM killer took it)" : nil)
        } catch {
            record(.balloon(bytes: bytes), index: index, start: start, problem: "could not start the balloon: \(error)")
        }
    }

    /// `frugal-workload-host --balloon BYTES` is the memory hog.
    static let balloonArgument = "--balloon"

    /// At the end of the run: reads the OOM count, removes the cgroup, and names an OOM kill.
    func finishMemory(exit: ExitStatus) -> MemoryRunFacts {
        let facts = memory.finish(workloadKilledBySIGKILL: exit.signal == SIGKILL, harnessKilled: outcome != nil)
        if facts.killedByOOM {
            ending.decide(.killedMemory, detail: "killed by the OOM killer of its memory cgroup (\(facts.cgroupController ?? "?") oom_kill \(facts.oomKills ?? 0))")
        }
        return facts
    }
}
