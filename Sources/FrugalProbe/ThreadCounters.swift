import FrugalCore

/// The calling thread's CPU time and context switches, read at handler boundaries.
///
/// PAPI first (`perf::TASK-CLOCK`, `perf::CONTEXT-SWITCHES` in all modes); where PAPI cannot
/// count (no perf events, paranoid kernel, no root), `getrusage(RUSAGE_THREAD)`. Created on,
/// and used only from, the thread it counts.
public final class ThreadCounters {
    /// One reading: cumulative since the counters started.
    public struct Reading: Sendable, Equatable {
        public var cpuNanoseconds: UInt64?
        public var contextSwitches: Int?
    }

    /// The events read through PAPI.
    public static let papiEvents = ["perf::TASK-CLOCK", "perf::CONTEXT-SWITCHES"]

    /// Where readings come from (`papi:perf::TASK-CLOCK+perf::CONTEXT-SWITCHES` or `rusage:thread`).
    public let source: String
    /// What was tried and whether it worked.
    public let availability: [CounterAvailability]
    private let eventSet: PAPIEventSet?

    /// Starts counting on the calling thread; `preferPAPI: false` forces the rusage fallback.
    public init(preferPAPI: Bool = true) {
        var availability: [CounterAvailability] = []
        var eventSet: PAPIEventSet?
        if preferPAPI {
            do {
                let set = try PAPIEventSet(events: ThreadCounters.papiEvents)
                try set.start()
                eventSet = set
                availability += ThreadCounters.papiEvents.map { CounterAvailability(name: $0, source: "papi", available: true) }
            } catch {
                availability += ThreadCounters.papiEvents.map {
                    CounterAvailability(name: $0, source: "papi", available: false, reason: "\(error)")
                }
            }
        }
        self.eventSet = eventSet
        if eventSet != nil {
            source = "papi:" + ThreadCounters.papiEvents.joined(separator: "+")
        } else {
            source = "rusage:thread"
        }
        let rusageWorks = (try? ResourceUsage.currentThread()) != nil
        availability.append(CounterAvailability(name: "RUSAGE_THREAD", source: "rusage", available: rusageWorks,
                                                reason: rusageWorks ? nil : "getrusage(RUSAGE_THREAD) failed"))
        self.availability = availability
    }

    /// The current cumulative counts; nil counts when a read fails. A PAPI set that fails mid-run
    /// gives no reading rather than rusage's: `source` says `papi:`, and a difference between a
    /// PAPI count and an rusage count would be a number from two different clocks.
    public func read() -> Reading {
        if let eventSet {
            guard let values = try? eventSet.read(), values.count >= 2 else { return Reading(cpuNanoseconds: nil, contextSwitches: nil) }
            return Reading(cpuNanoseconds: UInt64(max(0, values[0])), contextSwitches: Int(values[1]))
        }
        guard let usage = try? ResourceUsage.currentThread() else { return Reading(cpuNanoseconds: nil, contextSwitches: nil) }
        let cpu = (usage.userSeconds + usage.systemSeconds) * 1e9
        return Reading(cpuNanoseconds: UInt64(saturating: cpu), contextSwitches: usage.voluntaryContextSwitches + usage.involuntaryContextSwitches)
    }
}
