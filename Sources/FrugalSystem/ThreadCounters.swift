import FrugalProtocol

/// What FrugalKit's handler meter reads at each handler's start and end: the real per-thread
/// counters (``ThreadCounters``) or a test double standing in for a machine with a PMU.
/// Created on, and used only from, the thread it counts.
public protocol ThreadCounterSource: AnyObject {
    /// Where readings come from, as handler records name it (`papi:perf::TASK-CLOCK+…`).
    var source: String { get }
    /// What was tried and whether it worked (the hello's `counters`).
    var availability: [CounterAvailability] { get }
    /// The current cumulative counts.
    func read() -> ThreadCounters.Reading
}

/// The calling thread's CPU time, context switches and, where the CPU has a PMU, its hardware
/// counts, read at handler boundaries.
///
/// PAPI first: one event set of `perf::TASK-CLOCK`, `perf::CONTEXT-SWITCHES` (all modes) and the
/// hardware events (user space, the same kernel events `cpu.instructions` counts for the whole
/// run). PAPI lets a thread run one event set per component, so the hardware events share the
/// set; where they cannot be added (no PMU, as in a VM) the set holds the software events alone
/// and each hardware event is unavailable with PAPI's reason. Where PAPI cannot count at all
/// (no perf events, paranoid kernel, no root), `getrusage(RUSAGE_THREAD)`.
public final class ThreadCounters: ThreadCounterSource {
    /// One reading: cumulative since the counters started.
    public struct Reading: Sendable, Equatable {
        public var cpuNanoseconds: UInt64?
        public var contextSwitches: Int?
        /// Hardware counts of the thread (cumulative); nil when the thread has none.
        public var hardware: HardwareCounterReading?

        public init(cpuNanoseconds: UInt64?, contextSwitches: Int?, hardware: HardwareCounterReading? = nil) {
            self.cpuNanoseconds = cpuNanoseconds
            self.contextSwitches = contextSwitches
            self.hardware = hardware
        }
    }

    /// The software events read through PAPI.
    public static let papiEvents = ["perf::TASK-CLOCK", "perf::CONTEXT-SWITCHES"]
    /// The hardware events (``HardwareCounterReading/papiThreadEvents``): instructions and
    /// cycles are needed together; each miss counter is added only if the PMU has it.
    public static let papiHardwareEvents = HardwareCounterReading.papiThreadEvents

    /// Where readings come from (`papi:perf::TASK-CLOCK+perf::CONTEXT-SWITCHES[+hardware events]` or `rusage:thread`).
    public let source: String
    /// What was tried and whether it worked.
    public let availability: [CounterAvailability]
    private let eventSet: PAPIEventSet?
    /// Index in the set of each hardware event (nil: not counted), in ``papiHardwareEvents`` order.
    private let hardwareIndex: [Int?]
    /// Why the thread has no hardware counts; nil when it has.
    private let hardwareUnavailable: String?

    /// Starts counting on the calling thread; `preferPAPI: false` forces the rusage fallback,
    /// `hardware: false` leaves the hardware events out.
    public init(preferPAPI: Bool = true, hardware: Bool = true) {
        var availability: [CounterAvailability] = []
        var eventSet: PAPIEventSet?
        var hardwareIndex: [Int?] = Array(repeating: nil, count: Self.papiHardwareEvents.count)
        var hardwareUnavailable: String? = preferPAPI ? "hardware counters were not asked for" : "PAPI was not used (FRUGAL_COUNTERS=rusage)"
        if preferPAPI {
            if hardware {
                let attempt = Self.hardwareSet()
                eventSet = attempt.set
                hardwareIndex = attempt.index
                hardwareUnavailable = attempt.set == nil ? attempt.reason : nil
                availability += attempt.availability
            }
            if eventSet == nil {
                do {
                    let set = try PAPIEventSet(events: ThreadCounters.papiEvents)
                    try set.start()
                    eventSet = set
                } catch {
                    availability += ThreadCounters.papiEvents.map {
                        CounterAvailability(name: $0, source: "papi", available: false, reason: "\(error)")
                    }
                }
            }
            if eventSet != nil {
                availability.insert(contentsOf: ThreadCounters.papiEvents.map { CounterAvailability(name: $0, source: "papi", available: true) }, at: 0)
            }
        }
        self.eventSet = eventSet
        self.hardwareIndex = hardwareIndex
        self.hardwareUnavailable = hardwareUnavailable
        if let eventSet {
            source = "papi:" + eventSet.events.joined(separator: "+")
        } else {
            source = "rusage:thread"
        }
        let rusageWorks = (try? ResourceUsage.currentThread()) != nil
        availability.append(CounterAvailability(name: "RUSAGE_THREAD", source: "rusage", available: rusageWorks,
                                                reason: rusageWorks ? nil : "getrusage(RUSAGE_THREAD) failed"))
        self.availability = availability
    }

    /// The hardware and software events in one started set, or why not: instructions and
    /// cycles first (without them there is nothing to report), then each miss counter alone.
    /// The hardware events lead the set: on a machine without them the first name fails to
    /// resolve before any perf event is opened, so trying costs the app no wakeup (closing an
    /// opened perf event waits for an RCU grace period).
    private static func hardwareSet() -> (set: PAPIEventSet?, index: [Int?], availability: [CounterAvailability], reason: String?) {
        var index: [Int?] = Array(repeating: nil, count: papiHardwareEvents.count)
        var availability: [CounterAvailability] = []
        func attempt(_ hardware: [String]) -> Result<PAPIEventSet, Error> {
            Result {
                let set = try PAPIEventSet(events: hardware + papiEvents)
                try set.start()
                // A pinned group the PMU cannot hold starts, then reads nothing (error state): read
                // once, so such a set is refused here rather than losing every handler's counts.
                _ = try set.read()
                return set
            }
        }
        var hardware = Array(papiHardwareEvents.prefix(2))
        var best: PAPIEventSet
        switch attempt(hardware) {
        case .failure(let error):
            let reason = "\(error)"
            return (nil, index, papiHardwareEvents.map { CounterAvailability(name: $0, source: "papi", available: false, reason: reason) }, reason)
        case .success(let set):
            best = set
            index[0] = 0
            index[1] = 1
            availability += hardware.map { CounterAvailability(name: $0, source: "papi", available: true) }
        }
        for (offset, event) in papiHardwareEvents.enumerated().dropFirst(2) {
            // PAPI lets one set run per thread: stop the best so far before trying a bigger one.
            try? best.stop()
            switch attempt(hardware + [event]) {
            case .success(let set):
                best = set
                index[offset] = hardware.count
                hardware.append(event)
                availability.append(CounterAvailability(name: event, source: "papi", available: true))
            case .failure(let error):
                availability.append(CounterAvailability(name: event, source: "papi", available: false, reason: "\(error)"))
                if (try? best.start()) == nil {
                    return (nil, Array(repeating: nil, count: papiHardwareEvents.count), availability,
                            "the hardware event set stopped counting when \(event) was tried")
                }
            }
        }
        return (best, index, availability, nil)
    }

    /// The current cumulative counts; nil counts when a read fails. A PAPI set that fails mid-run
    /// gives no reading rather than rusage's: `source` says `papi:`, and a difference between a
    /// PAPI count and an rusage count would be a number from two different clocks.
    public func read() -> Reading {
        if let eventSet {
            // The software events follow the hardware ones, when there are any.
            let software = eventSet.events.count - Self.papiEvents.count
            guard let values = try? eventSet.read(), values.count == eventSet.events.count, software >= 0 else {
                return Reading(cpuNanoseconds: nil, contextSwitches: nil,
                               hardware: hardwareIndex[0] == nil ? nil : HardwareCounterReading(unavailable: "PAPI_read failed"))
            }
            let taskClock = UInt64(max(0, values[software]))
            return Reading(cpuNanoseconds: taskClock, contextSwitches: Int(values[software + 1]), hardware: hardware(values, taskClock: taskClock))
        }
        guard let usage = try? ResourceUsage.currentThread() else { return Reading(cpuNanoseconds: nil, contextSwitches: nil) }
        let cpu = (usage.userSeconds + usage.systemSeconds) * 1e9
        return Reading(cpuNanoseconds: UInt64(saturating: cpu), contextSwitches: usage.voluntaryContextSwitches + usage.involuntaryContextSwitches)
    }

    /// The hardware part of a PAPI reading. PAPI opens a set as one pinned perf group: the kernel
    /// counts it whenever the thread runs, or puts it in error and the read fails; it is never
    /// multiplexed. So its time running is its time enabled: the group's own task clock.
    private func hardware(_ values: [Int64], taskClock: UInt64) -> HardwareCounterReading? {
        guard let instructions = hardwareIndex[0], let cycles = hardwareIndex[1] else { return nil }
        func value(_ index: Int?) -> UInt64? { index.flatMap { $0 < values.count ? UInt64(max(0, values[$0])) : nil } }
        return HardwareCounterReading(instructions: value(instructions), cycles: value(cycles), cacheMisses: value(hardwareIndex[2]),
                                      branchMisses: value(hardwareIndex[3]), timeEnabledNanoseconds: taskClock, timeRunningNanoseconds: taskClock)
    }

    /// Why this thread has no hardware counts (no PMU: PAPI's reason); nil when it has them.
    public var hardwareUnavailableReason: String? { hardwareUnavailable }
}
