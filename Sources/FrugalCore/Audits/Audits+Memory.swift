extension Audits {
    /// Memory audits (docs/RULES.md, Memory). Each is not applicable where the scenario gave it
    /// nothing to judge: no warning, no background, no resource, no cycle, no real pressure.
    static let memory: [Audit] = [
        Audit("memory.respond-to-warnings") { analysis, _ in
            let memory = MemoryAnalysis(analysis.record)
            let warnings = memory.warnings.filter { $0.delivery != nil && $0.delivery?.level != .normal }
            guard !warnings.isEmpty else { return .notApplicable("the scenario delivered no warning or critical memory warning") }
            var worst: Double?
            var evidence: [Evidence] = []
            for warning in warnings {
                let time = analysis.runTime(warning.time)
                let origin = warning.delivery.map { "\($0.level.rawValue) (\($0.origin))" } ?? "warning"
                guard let fraction = MemoryAnalysis.residualFraction(warning) else {
                    let why = warning.handled == nil ? "the app never reported handling it" : "the process was gone before the 1 s sample"
                    evidence.append(Evidence(time: time, description: "\(origin): not measured, \(why)"))
                    continue
                }
                worst = max(worst ?? 0, fraction)
                let before = warning.handled?.before?.reclaimableBytes ?? 0
                var text = "\(origin): held \(ByteCount.display(Double(before))) reclaimable, freed \(ByteCount.display(Double(warning.delivery?.freedWithin1s ?? 0))) within 1 s (\(ByteCount.display(Double(warning.delivery?.freedWithin100ms ?? 0))) within 100 ms); \(DisplayFormat.number(fraction * 100))% still held"
                if let optedOut = warning.handled?.before?.optedOutCacheBytes, optedOut > 0 {
                    text += "; \(ByteCount.display(Double(optedOut))) in caches that opted out of eviction on warnings"
                }
                evidence.append(Evidence(time: time, description: text))
            }
            guard let worst else {
                if analysis.record.memory?.killedByOOM == true {
                    return .value(1, display: "killed by the OOM killer before freeing anything", evidence: evidence)
                }
                return .unavailable("no warning could be measured: " + evidence.map(\.description).joined(separator: "; "))
            }
            return .value(worst, display: "\(DisplayFormat.number(worst * 100))% of reclaimable memory still held 1 s after a warning", evidence: evidence)
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
            guard let ratio = backgroundRatio(analysis) else { return .notApplicable("the app never entered the background with /proc samples on both sides") }
            guard let value = ratio.value else {
                return .notApplicable("little to free: the app held less than \(ByteCount.display(Double(minimumFreeableBytes))) above its launch footprint when it entered the background (" + ratio.evidence.map(\.description).joined(separator: "; ") + ")")
            }
            return .value(value, display: "\(DisplayFormat.number(value * 100))% of what it gained since launch kept in the background", evidence: ratio.evidence)
        },
        Audit("memory.lazy-resources") { analysis, _ in
            let memory = MemoryAnalysis(analysis.record)
            guard !memory.resources.isEmpty else { return .notApplicable("the app loaded no resource through FrugalKit") }
            guard let launch = analysis.launchNanoseconds else { return .unavailable("the app never finished launching") }
            let launchEnd = analysis.record.startTime + launch
            let unused = memory.unusedLaunchBytes(launchEnd: launchEnd)
            let evidence = memory.resources.filter { $0.loadedAt <= launchEnd }.map { resource in
                Evidence(time: analysis.runTime(resource.loadedAt),
                         description: "\(resource.name) (\(ByteCount.display(Double(resource.bytes))), \(resource.mapped ? "mapped" : "loaded")) at launch: "
                            + (resource.firstUse.map { "first used at \(DisplayFormat.number(analysis.runTime($0))) s" } ?? "never used"))
            }
            return .value(Double(unused.bytes), display: "\(ByteCount.display(Double(unused.bytes))) loaded at launch and never used", evidence: evidence)
        },
        Audit("memory.map-large-resources") { analysis, _ in
            let memory = MemoryAnalysis(analysis.record)
            let large = memory.resources.filter { $0.bytes > MemoryAnalysis.largeResourceBytes }
            guard !large.isEmpty else { return .notApplicable("the app used no resource file over 1 MiB") }
            let peak = memory.peakLargeCopyBytes
            var evidence = large.map { resource in
                Evidence(time: analysis.runTime(resource.loadedAt),
                         description: "\(resource.name): \(ByteCount.display(Double(resource.bytes))) \(resource.mapped ? "mapped (no copy)" : "read whole into anonymous memory")")
            }
            if let anonymous = analysis.record.samples.compactMap(\.memory).map(\.anonymousBytes).max() {
                evidence.append(Evidence(description: "peak held anonymous memory of the process (smaps_rollup): \(ByteCount.display(Double(anonymous)))"))
            }
            return .value(Double(peak.bytes), display: "\(ByteCount.display(Double(peak.bytes))) held in copies of large resources", evidence: evidence)
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
            let pressured = record.steps.contains { step in
                switch step.step { case .pressure, .balloon: return true; default: return false }
            }
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

    /// What an app must have gained since launch for freeing it on background to be judged:
    /// below it, allocator noise and the runtime's own growth (thread arenas, stacks) are as
    /// large as anything the app could free. Frugal's calibration.
    public static let minimumFreeableBytes = 4 * 1_048_576

    /// The fraction of what the app gained since launch that it still held late in the
    /// background, the median over background intervals with at least `minimumFreeableBytes`
    /// gained (nil value: none had); each interval's last sample against the last sample before
    /// it began, over the launch footprint (the least held between launch and that interval).
    /// Nil when no interval had samples on both sides.
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
            guard let before = samples.last(where: { $0.time < interval.start })?.memory,
                  let during = samples.last(where: { $0.time > interval.start && $0.time <= interval.end })?.memory,
                  before.heldBytes > 0 else { continue }
            measured = true
            let footprint = samples.filter { $0.time >= launchEnd && $0.time < interval.start }.compactMap { $0.memory?.heldBytes }.min()
                ?? before.heldBytes
            let gained = before.heldBytes - footprint
            var text = "\(ByteCount.display(Double(before.heldBytes))) held in the foreground (\(ByteCount.display(Double(max(0, gained)))) above the launch footprint of \(ByteCount.display(Double(footprint)))), \(ByteCount.display(Double(during.heldBytes))) late in the background"
            if gained >= minimumFreeableBytes {
                ratios.append(min(1, max(0, Double(during.heldBytes - footprint) / Double(gained))))
            } else {
                text += ": little to free"
            }
            evidence.append(Evidence(time: analysis.runTime(interval.start), description: text))
        }
        guard measured else { return nil }
        return (SampleSummary.median(ratios), evidence)
    }
}
