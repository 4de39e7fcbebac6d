import Foundation
import FrugalHarness
import UnixSignals
import CFrugalSystem

/// SIGINT and SIGTERM during `frugal run`, through swift-service-lifecycle's `UnixSignals` (a
/// dispatch signal source as an async sequence; its `ServiceGroup` is made for long-lived async
/// services, while the suite is a batch on threads, so only the signal part is used).
///
/// The first signal interrupts the suite: the runs going on end through their normal teardown as
/// `interrupted`, the report of every finished run is written, and `frugal` exits 130 or 143.
/// A second one exits at once, after killing the live processes and removing this harness's
/// sandboxes, empty cgroups and report staging directories.
enum SignalHandling {
    /// Starts handling; returns once the signal sources are registered (no early signal is lost).
    static func install(_ interruption: SuiteInterruption, sandboxParent: URL, out: URL, quiet: Bool) {
        let registered = DispatchSemaphore(value: 0)
        Task.detached {
            let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
            registered.signal()
            var count = 0
            for await signal in signals {
                count += 1
                if count == 1 {
                    interruption.interrupt(signal: signal.rawValue)
                    if !quiet {
                        ProcessIO.progress("frugal: \(signal): ending the runs going on and writing the report of those that finished (again to exit at once)")
                    }
                } else {
                    interruption.interrupt(signal: signal.rawValue)
                    HarnessLeftovers.removeOwn(sandboxParent: sandboxParent, reportDirectory: out)
                    ProcessIO.error("\(signal) again: exited at once; the report was not written")
                    ProcessIO.exit(interruption.signal == SIGTERM ? .terminated : .interrupted)
                }
            }
        }
        registered.wait()
        // Behind the dispatch source's handler: the delivery itself is noted at once, on the
        // thread that takes it (see `delivered`).
        _ = frugal_note_signal_install(SIGINT)
        _ = frugal_note_signal_install(SIGTERM)
    }

    /// SIGINT or SIGTERM, if one has been delivered or is pending for the process, read now.
    /// The dispatch source's handler runs later, on a thread of its own: on a loaded machine (and
    /// under strace) a signal that landed in the report's last rename was handled on the renaming
    /// thread itself, and recorded by the source only after `frugal run` had decided to exit 0.
    static func delivered() -> Int32? {
        let seen = frugal_signal_seen()
        if seen != 0 { return seen }
        // Sent but not yet taken by any thread: pending for the process or one of its threads.
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("ShdPnd:") || line.hasPrefix("SigPnd:") {
            guard let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16) else { continue }
            for signal in [SIGINT, SIGTERM] where mask & (1 << UInt64(signal - 1)) != 0 { return signal }
        }
        return nil
    }
}
