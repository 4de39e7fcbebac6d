import FrugalCore
import FrugalProbe

/// Reads the main thread's counters at each handler's start and end and reports the handler.
/// Counting happens only at boundaries the app crosses anyway: nothing wakes up to measure.
final class HandlerMeter {
    private let counters: ThreadCounters
    private let emitter: EventEmitter

    /// Must be created on the main thread (PAPI counts the thread that made the set).
    init(emitter: EventEmitter, preferPAPI: Bool) {
        self.counters = ThreadCounters(preferPAPI: preferPAPI)
        self.emitter = emitter
    }

    var availability: [CounterAvailability] { counters.availability }

    /// Runs `body` as the handler `name` and reports it.
    func measure(_ name: String, _ body: () -> Void) {
        let before = counters.read()
        let start = MonotonicClock.now()
        body()
        let end = MonotonicClock.now()
        let after = counters.read()
        var cpu: UInt64?
        if let a = after.cpuNanoseconds, let b = before.cpuNanoseconds { cpu = a >= b ? a - b : 0 }
        var switches: Int?
        if let a = after.contextSwitches, let b = before.contextSwitches { switches = max(0, a - b) }
        emitter.emit(.handler(HandlerRecord(name: name, start: start, end: end, cpuNanoseconds: cpu,
                                            contextSwitches: switches, counterSource: counters.source)), at: end)
    }
}
