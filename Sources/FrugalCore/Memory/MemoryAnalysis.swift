/// The memory facts of a run that metrics and audits share, derived from the kit's `memory`
/// events, the harness's deliveries and the `/proc` samples. Pure.
public struct MemoryAnalysis: Sendable {
    /// One warning: what the harness sent and what the app's handler did.
    public struct Warning: Sendable {
        public var delivery: WarningDelivery?
        public var handled: MemoryEvent?
        /// Monotonic ns of the warning: the delivery, or the handler's start for an app-side one.
        public var time: UInt64
        /// ns the main thread waited for a CPU while it ran the warning's handler (the run loop's
        /// handler record, from the scheduler's run-queue time): the machine's, not the app's.
        public var waitingForCPU: UInt64 = 0
        /// ms from delivery to the handler's return, less the handler's wait for a CPU (nil
        /// without both): beside two CPU hogs a handler freeing a cache once read 78 ms, most of
        /// it preempted, as `main.no-long-blocks` also leaves out.
        public var responseMs: Double? {
            guard let delivery, let end = handled?.handlerEnd else { return nil }
            let span = Int64(bitPattern: end &- delivery.time)
            return Double(max(0, span - Int64(clamping: waitingForCPU))) / 1e6
        }
    }

    /// A resource as the kit reported it.
    public struct ResourceUse: Sendable {
        public var name: String
        public var mapped: Bool
        public var bytes: Int
        public var loadedAt: UInt64
        public var firstUse: UInt64?
        public var releasedAt: UInt64?
    }

    public let warnings: [Warning]
    public let resources: [ResourceUse]
    public let events: [(time: UInt64, event: MemoryEvent)]
    public let facts: MemoryRunFacts?

    /// Resource files larger than this count as large (docs/RULES.md, memory.map-large-resources: "resource files over 1 MiB").
    public static let largeResourceBytes = 1 << 20

    public init(_ record: RunRecord) {
        facts = record.memory
        var events: [(time: UInt64, event: MemoryEvent)] = []
        for event in record.events {
            if case .memory(let memory) = event.body { events.append((event.time, memory)) }
        }
        self.events = events
        let handled = events.map(\.event).filter { $0.kind == .warningHandled }
        let deliveries = record.memory?.deliveries ?? []
        var warnings = deliveries.map { delivery in
            Warning(delivery: delivery, handled: handled.first { $0.sequence == delivery.sequence }, time: delivery.time)
        }
        // Warnings the app raised itself (`simulateMemoryWarning`) have no delivery.
        for event in handled where !deliveries.contains(where: { $0.sequence == event.sequence }) {
            warnings.append(Warning(delivery: nil, handled: event, time: event.handlerStart ?? 0))
        }
        // The handler records of the run loop (with their run-queue time) that ran each warning.
        let handlers = record.events.compactMap { event -> HandlerRecord? in
            if case .handler(let handler) = event.body { return handler } else { return nil }
        }
        for index in warnings.indices {
            guard let start = warnings[index].handled?.handlerStart, let end = warnings[index].handled?.handlerEnd else { continue }
            warnings[index].waitingForCPU = handlers.filter { $0.start <= end && $0.end >= start }
                .reduce(0) { $0 &+ ($1.runQueueNanoseconds ?? 0) }
        }
        self.warnings = warnings.sorted { $0.time < $1.time }
        var resources: [ResourceUse] = []
        for (time, event) in events {
            guard let name = event.resource else { continue }
            switch event.kind {
            case .resourceLoaded, .resourceMapped:
                resources.append(ResourceUse(name: name, mapped: event.kind == .resourceMapped, bytes: event.bytes ?? 0, loadedAt: time))
            case .resourceFirstUse:
                if let index = resources.lastIndex(where: { $0.name == name && $0.firstUse == nil }) { resources[index].firstUse = time }
            case .resourceReleased:
                if let index = resources.lastIndex(where: { $0.name == name && $0.releasedAt == nil }) { resources[index].releasedAt = time }
            default: break
            }
        }
        self.resources = resources
    }

    /// Fraction of what the app held reclaimable at a warning that is still held 1 s later:
    /// (reclaimable − freed within 1 s, from outside) ÷ reclaimable, clamped to [0, 1].
    /// Nil without a delivery, its samples, or the handler's ledger; 0 when nothing was held.
    public static func residualFraction(_ warning: Warning) -> Double? {
        guard let freed = warning.delivery?.freedWithin1s, let before = warning.handled?.before else { return nil }
        let reclaimable = before.reclaimableBytes
        guard reclaimable > 0 else { return 0 }
        let still = max(0, reclaimable - max(0, freed))
        return min(1, Double(still) / Double(reclaimable))
    }

    /// Bytes of resources loaded or mapped before `launchEnd` and never used during the run.
    public func unusedLaunchBytes(launchEnd: UInt64) -> (bytes: Int, names: [String]) {
        let unused = resources.filter { $0.loadedAt <= launchEnd && $0.firstUse == nil }
        return (unused.reduce(0) { $0 + $1.bytes }, unused.map(\.name))
    }

    /// The largest number of bytes held at once in whole-file copies of resources over 1 MiB.
    public var peakLargeCopyBytes: (bytes: Int, names: [String]) {
        let copies = resources.filter { !$0.mapped && $0.bytes > Self.largeResourceBytes }
        var changes: [(UInt64, Int)] = []
        for copy in copies {
            changes.append((copy.loadedAt, copy.bytes))
            if let released = copy.releasedAt { changes.append((released, -copy.bytes)) }
        }
        // Releases before loads at the same instant, so a swap does not count twice.
        changes.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var held = 0, peak = 0
        for (_, delta) in changes {
            held += delta
            peak = max(peak, held)
        }
        return (peak, copies.map(\.name))
    }

    /// Held anonymous bytes at the end of each foreground/background cycle: the settled sample
    /// at the start of the `wait` that follows each `input(cycle)` step (a workload-driven
    /// cycle) or each `foreground` step (a real return from the background, where the scenario
    /// vocabulary has it).
    public static func cycleEnds(_ record: RunRecord) -> [(time: UInt64, anonymous: Int)] {
        var ends: [(time: UInt64, anonymous: Int)] = []
        var pending = false
        for step in record.steps {
            if step.step.kind == .foreground || step.step == .input(kind: cycleInput) {
                pending = true
            } else if step.step.kind == .wait {
                if pending, let sample = step.sampleAtStart, let memory = sample.memory {
                    ends.append((sample.time, memory.anonymousBytes))
                }
                pending = false
            }
        }
        return ends
    }

    /// The input kind a workload treats as one foreground/background cycle.
    public static let cycleInput = "cycle"

    /// Growth per cycle: the median of the differences between consecutive cycle ends (robust
    /// to one allocator warm-up). Nil with fewer than three cycles.
    public static func growthPerCycle(_ ends: [Int]) -> Double? {
        guard ends.count >= 3 else { return nil }
        return SampleSummary.median(zip(ends, ends.dropFirst()).map { Double($1 - $0) })
    }
}
