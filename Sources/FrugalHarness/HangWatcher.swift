import Foundation
import FrugalCore
import FrugalProbe
import CFrugalSystem

/// Watches the main thread's open handler from the harness and, once it outlives the hang limit,
/// signals the main thread (tgkill) so that FrugalKit's signal handler writes its stack to the
/// event stream. It waits on the event reader's condition: it wakes on the workload's own events
/// and at the one deadline that matters, and the workload never wakes up for it.
// @unchecked: `paused` and `stopped` are read and written only holding the reader's
// `condition`, the NSCondition this watcher sleeps on.
final class HangWatcher: @unchecked Sendable {
    private let reader: EventStreamReader
    private let process: any AppProcess
    private let limitNanoseconds: UInt64
    /// Guarded by `reader.condition`, like what it watches.
    private var paused = false
    private var stopped = false

    /// Watches `reader`'s open handler on `reader.clock` and signals `process`'s main thread.
    init(reader: EventStreamReader, process: any AppProcess, limitMilliseconds: Double = Thresholds.hangMilliseconds) {
        self.reader = reader
        self.process = process
        self.limitNanoseconds = UInt64(limitMilliseconds * 1e6)
        let thread = Thread { [self] in loop() }
        thread.name = "frugal-hang-watcher-\(process.pid)"
        thread.start()
    }

    /// Pauses while the app is suspended (a stopped process runs no handler; a signal would wait).
    func setPaused(_ value: Bool) {
        reader.condition.lock()
        paused = value
        reader.condition.broadcast()
        reader.condition.unlock()
    }

    func stop() {
        reader.condition.lock()
        stopped = true
        reader.condition.broadcast()
        reader.condition.unlock()
    }

    private func loop() {
        var signalled: UInt64?
        let condition = reader.condition
        condition.lock()
        defer { condition.unlock() }
        while !stopped && !reader.finished {
            guard !paused, let open = reader.openHandler, open.start != signalled else {
                condition.wait()
                continue
            }
            let deadline = open.start + limitNanoseconds
            if reader.clock.now() >= deadline {
                process.signalMainThread(frugal_hang_signal())
                signalled = open.start
            } else {
                reader.clock.wait(condition, until: deadline)
            }
        }
    }
}
