import Foundation
import FrugalCore
import FrugalProbe

/// The memory steps: `memoryWarning(level)` (the simulated signal), `pressure(limit)` (the
/// workload's cgroup limit, real reclaim) and `balloon(bytes)` (a hog in the same cgroup). The
/// kernel's pressure events forwarded as warnings and the OOM kill are the run's
/// (`MemoryPressure+Warning.swift`, `RunSession+Record.swift`); the cgroup and balloons are
/// `MemoryPressure`'s.
enum MemorySteps {
    static func memoryWarning(_ session: RunSession, _ level: MemoryWarningLevel, index: Int, start: UInt64) {
        session.sequence += 1
        let sent = session.sequence
        var (_, problem) = deliverWarning(session, level, origin: "scenario", sequence: sent)
        if problem == nil && !session.reader.waitForAck(sent, until: start + RunSession.nanoseconds(session.options.inputTimeout)) {
            problem = session.process.hasExited ? "the workload exited before handling the memory warning" : "the memory warning was not handled in time"
        }
        session.record(.memoryWarning(level: level), index: index, start: start, problem: problem)
    }

    static func pressure(_ session: RunSession, limit: Int, index: Int, start: UInt64) {
        guard let cgroup = session.memory.cgroup else {
            // Without a cgroup the real part cannot run: deliver the simulated critical warning.
            session.sequence += 1
            let (_, problem) = deliverWarning(session, .critical, origin: "scenario (pressure simulated: no cgroup)", sequence: session.sequence)
            session.record(.pressure(limitBytes: limit), index: index, start: start,
                           problem: "no memory cgroup, a critical warning was simulated instead" + (problem.map { "; " + $0 } ?? ""))
            return
        }
        let change = cgroup.setLimit(limit)
        session.memory.record(change)
        session.record(.pressure(limitBytes: limit), index: index, start: start, problem: change.appliedBytes == nil ? change.note : nil)
    }

    static func balloon(_ session: RunSession, bytes: Int, index: Int, start: UInt64) {
        guard let cgroup = session.memory.cgroup else {
            session.record(.balloon(bytes: bytes), index: index, start: start,
                           problem: "no memory cgroup: a hog outside one would pressure the whole machine, so none was started")
            return
        }
        do {
            // oom_score_adj 0 against the workload's 1000: the workload is the one the kernel takes.
            let hog = try ChildProcess(arguments: [session.options.workloadHost, Self.balloonArgument, String(bytes)], environment: [:],
                                       cgroupProcs: cgroup.balloonProcsPaths, oomScoreAdjustment: 0)
            session.memory.addBalloon(hog)
            let ready = EventStreamReader(fd: hog.eventFD)
            // The hog closes its event pipe once every page is touched (or it dies).
            ready.waitForEnd(until: start + RunSession.nanoseconds(10))
            session.record(.balloon(bytes: bytes), index: index, start: start,
                           problem: hog.hasExited ? "the balloon was killed before it filled (the OOM killer took it)" : nil)
        } catch {
            session.record(.balloon(bytes: bytes), index: index, start: start, problem: "could not start the balloon: \(error)")
        }
    }

    /// `frugal-workload-host --balloon BYTES` is the memory hog.
    static let balloonArgument = "--balloon"

    /// Sends a warning to the session's current process and samples its memory from outside just
    /// before, 100 ms and 1 s after (`MemoryPressure.deliverWarning`). Blocks for about 1 s.
    static func deliverWarning(_ session: RunSession, _ level: MemoryWarningLevel, origin: String, sequence: Int) -> (WarningDelivery, String?) {
        session.memory.deliverWarning(level, origin: origin, sequence: sequence, to: (session.process, session.sampler),
                                      programSignal: session.isBlackBox ? session.programMemoryWarningSignal : nil)
    }
}
