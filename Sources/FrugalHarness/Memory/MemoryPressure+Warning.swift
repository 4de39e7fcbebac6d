import Foundation
import FrugalCore
import FrugalProbe

/// A memory warning delivered to the run's current process, the way the `memoryWarning` step and
/// the kernel's forwarded pressure events both send it (`MemorySteps`, `startForwarding`).
extension MemoryPressure {
    /// Sends a memory warning and samples the process's memory from outside just before, 100 ms
    /// and 1 s after (blocks for about 1 s), and keeps the delivery. On whatever thread calls it:
    /// it touches only the process and sampler it is given (each locked inside) and this record
    /// (locked), never a session's state. `programSignal`: the signal a black-box program gets as
    /// its warning (nil: a control message).
    func deliverWarning(_ level: MemoryWarningLevel, origin: String, sequence: Int, to current: (process: any AppProcess, sampler: ProcSampler),
                        programSignal: Int32?) -> (WarningDelivery, String?) {
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
        record(delivery)
        return (delivery, problem)
    }

    /// Starts forwarding the kernel's pressure events to the run's current process, after its
    /// spawn. The monitor's callback runs on another queue: it reads the current process from
    /// `current` (a locked box the session's thread publishes at each spawn), never a session's
    /// own variables. `programSignal` as for ``deliverWarning(_:origin:sequence:to:programSignal:)``.
    func startForwarding(to current: CurrentProcess, programSignal: Int32?) {
        startMonitoring { [weak self] level, origin in
            self?.deliverAsync { [weak self] in
                guard let self, let target = current.value, !target.process.hasExited else { return }
                _ = self.deliverWarning(level, origin: origin, sequence: self.forwardedSequence(), to: target,
                                        programSignal: programSignal)
            }
        }
    }
}
