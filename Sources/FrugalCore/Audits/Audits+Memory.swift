extension Audits {
    /// Memory audits (docs/RULES.md, Memory). Each is not applicable where the scenario gave it
    /// nothing to judge: no warning, no background, no resource, no cycle, no real pressure.
    static let memory: [Audit] = [
        Audit("memory.respond-to-warnings") { analysis, _ in
            warningRetention(analysis)
        },
        Audit("memory.respond-immediately") { analysis, metrics in
            let memory = MemoryAnalysis(analysis.record)
            let timed = memory.warnings.filter { $0.responseMs != nil }
            guard !timed.isEmpty else {
                return memory.warnings.isEmpty ? .notApplicable("the scenario delivered no memory warning")
                    : .unavailable("no delivered warning was reported handled")
            }
            let worst = timed.compactMap(\.responseMs).max() ?? 0
            let evidence = timed.map { warning in
                Evidence(time: analysis.runTime(warning.time), durationMs: warning.responseMs,
                         description: "\(warning.delivery?.level.rawValue ?? "warning") (\(warning.delivery?.origin ?? "")) handled \(DisplayFormat.number(warning.responseMs ?? 0)) ms after delivery")
            }
            return .value(worst, display: "\(DisplayFormat.number(worst)) ms from a warning to its handler's return", evidence: evidence)
        },
        Audit("memory.free-on-background") { analysis, _ in
            backgroundRetention(analysis)
        },
        Audit("memory.lazy-resources") { analysis, _ in
            lazyResources(analysis)
        },
        Audit("memory.map-large-resources") { analysis, _ in
            mapLargeResources(analysis)
        },
        Audit("memory.no-leaks") { analysis, _ in
            let ends = MemoryAnalysis.cycleEnds(analysis.record)
            guard let growth = MemoryAnalysis.growthPerCycle(ends.map(\.anonymous)) else {
                return .notApplicable("the scenario has fewer than 3 foreground/background cycles (input(\(MemoryAnalysis.cycleInput)) steps) to compare")
            }
            let evidence = ends.enumerated().map { index, end in
                Evidence(time: analysis.runTime(end.time), description: "after cycle \(index + 1): \(ByteCount.display(Double(end.anonymous))) held anonymous")
            }
            return .value(max(0, growth), display: "\(ByteCount.display(growth)) more held per cycle (median)", evidence: evidence)
        },
        Audit("memory.survive-pressure") { analysis, _ in
            let record = analysis.record
            let pressured = record.steps.contains { $0.step.kind.needsMemoryCgroup }
            guard pressured else { return .notApplicable("the scenario applies no real pressure (pressure or balloon step)") }
            guard let facts = record.memory, facts.cgroupController != nil else {
                return .notApplicable("no memory cgroup: \(record.memory?.cgroupUnavailable ?? "unknown reason"); only simulated warnings were delivered")
            }
            var evidence = facts.limitChanges.map { change in
                Evidence(time: analysis.runTime(change.time), description: "limit \(ByteCount.display(Double(change.requestedBytes))) asked, "
                    + (change.appliedBytes.map { ByteCount.display(Double($0)) } ?? "none") + " applied" + (change.note.map { ": " + $0 } ?? ""))
            }
            evidence.append(Evidence(description: "\(facts.pressureEvents.count) kernel pressure events; OOM kills in the cgroup: \(facts.oomKills.map(String.init) ?? "unknown")"))
            return .value(facts.killedByOOM ? 1 : 0, display: facts.killedByOOM ? "killed by the OOM killer" : "survived real pressure", evidence: evidence)
        },
    ]

    /// What an app must have gained since launch for freeing it to be judged
    /// (``MemoryAnalysis/minimumFreeableBytes``).
    public static let minimumFreeableBytes = MemoryAnalysis.minimumFreeableBytes

    /// `memory.respond-to-warnings` on the footprint (``MemoryBreakdown/footprintBytes``) the
    /// harness sampled at each warning's delivery and 1 s later: the worst warning's fraction of
    /// what the app had gained since launch that it still held. Any app gives this evidence; the
    /// reclaimable memory FrugalKit's tools reported (its `Cache`s, purgeable buffers, loaded
    /// resources) is shown beside it.
    static func warningRetention(_ analysis: RunAnalysis) -> AuditMeasurement {
        let memory = MemoryAnalysis(analysis.record)
        let warnings = memory.warnings.filter { $0.delivery != nil && $0.delivery?.level != .normal }
        guard !warnings.isEmpty else { return .notApplicable("the scenario delivered no warning or critical memory warning") }
        let launchEnd = analysis.record.startTime + (analysis.launchNanoseconds ?? 0)
        var worst: Double?
        var measured = 0
        var evidence: [Evidence] = []
        for warning in warnings {
            guard let delivery = warning.delivery else { continue }
            let time = analysis.runTime(warning.time)
            let origin = "\(delivery.level.rawValue) (\(delivery.origin))"
            let connections = MemoryAnalysis.openConnections(at: delivery.time &+ 1_000_000_000, in: analysis.record)
            guard let retention = MemoryAnalysis.warningRetention(delivery, samples: analysis.record.samples, launchEnd: launchEnd,
                                                                  runtime: MemoryAnalysis.runtimeFootprint(in: analysis.record),
                                                                  connections: connections) else {
                evidence.append(Evidence(time: time, description: "\(origin): not measured, the process was gone before the 1 s sample"))
                continue
            }
            measured += 1
            var text = "\(origin): \(retention.summary) 1 s later"
            if let fraction = retention.fraction {
                worst = max(worst ?? 0, fraction)
                text += "; \(DisplayFormat.number(fraction * 100))% of the gain still held"
            } else {
                text += ": little to free"
            }
            if let ledger = warning.handled?.before, ledger.reclaimableBytes > 0 {
                text += "; FrugalKit's tools held \(ByteCount.display(Double(ledger.reclaimableBytes))) reclaimable"
                if ledger.optedOutCacheBytes > 0 {
                    text += " (\(ByteCount.display(Double(ledger.optedOutCacheBytes))) in caches that opted out of eviction on warnings)"
                }
            }
            if warning.handled == nil { text += "; the app reported no handler for it" }
            evidence.append(Evidence(time: time, description: text))
        }
        if let worst {
            return .value(worst, display: "\(DisplayFormat.number(worst * 100))% of the footprint gained since launch still held 1 s after a warning", evidence: evidence)
        }
        if analysis.record.memory?.killedByOOM == true {
            return .value(1, display: "killed by the OOM killer before freeing anything", evidence: evidence)
        }
        if measured > 0 {
            return .notApplicable("little to free: the app's footprint was less than \(ByteCount.display(Double(minimumFreeableBytes))) above its launch footprint at every warning, beyond what its HTTP client keeps for open connections (" + evidence.map(\.description).joined(separator: "; ") + ")")
        }
        return .unavailable("no warning could be measured: " + evidence.map(\.description).joined(separator: "; "))
    }

    /// `memory.free-on-background`: ``backgroundRatio(_:)`` as the audit's measurement. What the
    /// app freed but the allocator kept is not the app's: FrugalKit trims glibc's arenas on
    /// entering the background, as Darwin's allocator returns freed pages.
    static func backgroundRetention(_ analysis: RunAnalysis) -> AuditMeasurement {
        guard let ratio = backgroundRatio(analysis) else { return .notApplicable("the app never entered the background with /proc samples on both sides") }
        guard let value = ratio.value else {
            return .notApplicable("little to free: the app's footprint was less than \(ByteCount.display(Double(minimumFreeableBytes))) above its launch footprint when it entered the background, beyond what its HTTP client keeps for open connections (" + ratio.evidence.map(\.description).joined(separator: "; ") + ")")
        }
        return .value(value, display: "\(DisplayFormat.number(value * 100))% of the footprint gained since launch kept in the background", evidence: ratio.evidence)
    }

    /// The fraction of what the app gained since launch that it still held late in the
    /// background, the median over background intervals with at least `minimumFreeableBytes`
    /// gained (nil value: none had); each interval's last sample against the last sample before
    /// it began, over the launch footprint (the least held between launch and that interval), all
    /// footprints as iOS counts them (``MemoryBreakdown/footprintBytes``). Nil when no interval had
    /// samples on both sides.
    static func backgroundRatio(_ analysis: RunAnalysis) -> (value: Double?, evidence: [Evidence])? {
        let record = analysis.record
        var intervals: [(start: UInt64, end: UInt64)] = []
        var backgroundSince: UInt64?
        for event in record.events {
            guard case .stateChanged(let change) = event.body else { continue }
            if change.to == .background { backgroundSince = event.time }
            else if let start = backgroundSince, change.from == .background { intervals.append((start, event.time)); backgroundSince = nil }
        }
        if let start = backgroundSince { intervals.append((start, record.endTime)) }
        let samples = record.samples.filter { $0.memory != nil }
        let launchEnd = record.startTime + (analysis.launchNanoseconds ?? 0)
        var ratios: [Double] = []
        var evidence: [Evidence] = []
        var measured = false
        for interval in intervals {
            guard let before = samples.last(where: { $0.time < interval.start })?.memory?.footprintBytes,
                  let late = samples.last(where: { $0.time > interval.start && $0.time <= interval.end }),
                  let during = late.memory?.footprintBytes, before > 0 else { continue }
            measured = true
            let floor = min(before, MemoryAnalysis.launchFootprint(samples, launchEnd: launchEnd, before: interval.start,
                                                                   runtime: MemoryAnalysis.runtimeFootprint(in: record)) ?? before)
            let retention = MemoryAnalysis.Retention(launchFootprint: floor, before: before, after: during,
                                                     connections: MemoryAnalysis.openConnections(at: late.time, in: record))
            var text = "entering the background: \(retention.summary) late in the background"
            if let fraction = retention.fraction { ratios.append(fraction) } else { text += ": little to free" }
            evidence.append(Evidence(time: analysis.runTime(interval.start), description: text))
        }
        guard measured else { return nil }
        return (SampleSummary.median(ratios), evidence)
    }
}
