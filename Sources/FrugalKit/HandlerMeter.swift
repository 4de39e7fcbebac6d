import FrugalProtocol
import FrugalSystem
import CFrugalSystem
#if canImport(Glibc)
import Glibc
#endif

/// Reads the main thread's counters at each handler's start and end and reports the handler.
/// Counting happens only at boundaries the app crosses anyway: nothing wakes up to measure.
final class HandlerMeter {
    private let counters: any ThreadCounterSource
    let emitter: EventEmitter
    /// `/proc/self/task/<tid>/schedstat` of the counted thread, kept open and re-read with pread:
    /// its second field (run-queue delay) separates preemption from waiting.
    private let schedstatFD: Int32

    /// Must be created on the main thread (PAPI counts the thread that made the set).
    convenience init(emitter: EventEmitter, preferPAPI: Bool) {
        self.init(emitter: emitter, counters: ThreadCounters(preferPAPI: preferPAPI))
    }

    /// A meter reading `counters` (the real ones, or a test double of a machine with a PMU).
    init(emitter: EventEmitter, counters: any ThreadCounterSource) {
        self.counters = counters
        self.emitter = emitter
        // Without schedstat (an older kernel, no procfs) the run-queue delay is unavailable: -1.
        self.schedstatFD = (try? SystemCall.retrying("open", subject: "schedstat") {
            open("/proc/self/task/\(frugal_gettid())/schedstat", O_RDONLY | O_CLOEXEC)
        }) ?? -1
    }

    deinit { if schedstatFD >= 0 { try? SystemCall.close(schedstatFD, subject: "schedstat") } }

    var availability: [CounterAvailability] { counters.availability }

    /// The run-queue delay of the counted thread so far, ns.
    private func runQueueDelay() -> UInt64? {
        guard schedstatFD >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 96)
        // A failed read leaves the delay unavailable for this handler (nil), never 0.
        guard let count = try? buffer.withUnsafeMutableBytes({ raw in
            try SystemCall.retrying("pread", subject: "schedstat") { pread(schedstatFD, raw.baseAddress, raw.count, 0) }
        }), count > 0 else { return nil }
        let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
        return fields.count >= 2 ? UInt64(fields[1]) : nil
    }

    private func voluntarySwitches() -> Int? { (try? ResourceUsage.currentThread())?.voluntaryContextSwitches }

    /// Runs `body` as the handler `name` and reports it; its start is reported first, so the
    /// harness can see a handler that outlives the hang limit while it still runs.
    func measure(_ name: String, _ body: () -> Void) {
        measure(name, unlessShorterThan: nil, body)
    }

    /// Runs `body` as the handler `name`; when it returns within `brief` ns nothing is reported
    /// (not even its start, which is why a hang inside it is named only once it returns). For a
    /// pass that usually finds nothing to do and runs after every wakeup: reporting each empty
    /// one would add a handler to every wakeup of every app.
    func measure(_ name: String, unlessShorterThan brief: UInt64?, _ body: () -> Void) {
        let before = counters.read()
        let voluntaryBefore = voluntarySwitches()
        let delayBefore = runQueueDelay()
        let start = MonotonicClock.now()
        if brief == nil { emitter.emit(.handlerBegan(HandlerBegin(name: name, start: start)), at: start) }
        body()
        let end = MonotonicClock.now()
        if let brief {
            guard end - start >= brief else { return }
            emitter.emit(.handlerBegan(HandlerBegin(name: name, start: start)), at: start)
        }
        let after = counters.read()
        let voluntaryAfter = voluntarySwitches()
        let delayAfter = runQueueDelay()
        var cpu: UInt64?
        if let a = after.cpuNanoseconds, let b = before.cpuNanoseconds { cpu = a >= b ? a - b : 0 }
        var switches: Int?
        if let a = after.contextSwitches, let b = before.contextSwitches { switches = max(0, a - b) }
        var voluntary: Int?
        if let a = voluntaryAfter, let b = voluntaryBefore { voluntary = max(0, a - b) }
        var delay: UInt64?
        if let a = delayAfter, let b = delayBefore { delay = a >= b ? a - b : 0 }
        // The handler's own hardware counts; nil when the thread has none (the hello says why).
        let hardware = after.hardware.flatMap { a in before.hardware.map { a.since($0) } }
        emitter.emit(.handler(HandlerRecord(name: name, start: start, end: end, cpuNanoseconds: cpu,
                                            contextSwitches: switches, counterSource: counters.source,
                                            voluntaryContextSwitches: voluntary, runQueueNanoseconds: delay,
                                            hardware: hardware)), at: end)
    }
}
