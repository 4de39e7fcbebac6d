import Dispatch
import Synchronization

/// Compares a report against a baseline over the repetitions of each workload and scenario. Pure.
///
/// Every audit's numeric value and every metric is tested with ``MetricComparison`` (Mann–Whitney
/// U, a bootstrap interval of the median change, and the minimum effect of
/// ``MinimumEffectTable``). Only a gating `regressed` verdict is a regression.
public enum ReportComparator {
    /// `head` against `base`; `baseline` names where the baseline came from.
    ///
    /// With a `calibration` (already checked against this host), every threshold is at least
    /// ``NoiseCalibration/noiseMultiple`` times the value's measured noise; each widened entry
    /// keeps the configured threshold and the noise beside the one used.
    ///
    /// `sameSession`: both reports were measured interleaved in one session (`frugal ab`), so a
    /// counter constant on each side is compared exactly, with its count tolerance, and gates.
    /// Against a stored baseline (the default) a session's drift can move such a counter as a
    /// whole (whole reports of one build drift by up to 10 wakeups), so a constant counter is
    /// still judged as a count, but against the value's practical threshold, and gates only where
    /// ``MinimumEffectTable`` says it does.
    public static func compare(base: Report, head: Report, baseline: String, policy: ComparisonPolicy = .default,
                               calibration: NoiseCalibration? = nil, sameSession: Bool = false) -> ReportComparison {
        let baseGroups = groups(base.runs)
        let headGroups = groups(head.runs)
        var results: [WorkloadComparison] = []
        var unmatched: [String] = []
        for key in baseGroups.order where headGroups.runs[key] == nil { unmatched.append("\(key) (only in the baseline)") }
        // Each workload and scenario on its own, side by side: the tests (a seeded bootstrap per
        // value) are independent and deterministic, and the results keep the head's order.
        let keys = headGroups.order
        let slots = Mutex([Slot?](repeating: nil, count: keys.count))
        DispatchQueue.concurrentPerform(iterations: keys.count) { index in
            let key = keys[index]
            guard let headRuns = headGroups.runs[key], let first = headRuns.first else { return }
            guard let baseRuns = baseGroups.runs[key] else {
                slots.withLock { $0[index] = .unmatched("\(key) (not in the baseline)") }
                return
            }
            let comparison = workload(first, baseRuns: baseRuns, headRuns: headRuns, policy: policy,
                                      calibration: calibration, sameSession: sameSession)
            slots.withLock { $0[index] = .compared(comparison) }
        }
        for slot in slots.withLock({ $0 }) {
            switch slot {
            case .compared(let comparison)?: results.append(comparison)
            case .unmatched(let text)?: unmatched.append(text)
            case nil: continue
            }
        }
        let entries = results.flatMap { $0.audits + $0.metrics }
        let regressions = entries.filter { $0.verdict == .regressed && $0.minimumEffect.gating }
            .sorted { $0.severity > $1.severity }
        let shortage = entries.first { $0.verdict == .insufficientData }
            .map { "\($0.workload) · \($0.scenario): \($0.reason)" }
        var comparison = ReportComparison(baseline: baseline, baselineGeneratedAt: base.generatedAt, alpha: policy.alpha,
                                          minimumRepetitions: policy.minimumRepetitions, results: results,
                                          regressions: regressions, unmatched: unmatched, insufficientRepetitions: shortage)
        comparison.machineWarning = head.crossMachineWarning(against: base)
        comparison.inconclusive = entries.filter { $0.verdict == .inconclusive && $0.minimumEffect.gating }
        comparison.calibration = calibration.map { "\($0.subject), \($0.generatedAt)" }
        return comparison
    }

    /// What one workload and scenario of the head gave.
    private enum Slot: Sendable {
        case compared(WorkloadComparison)
        case unmatched(String)
    }

    /// One workload and scenario: every audit's value and every metric, base against head.
    private static func workload(_ first: RunReport, baseRuns: [RunReport], headRuns: [RunReport], policy: ComparisonPolicy,
                                 calibration: NoiseCalibration?, sameSession: Bool) -> WorkloadComparison {
        let audits = Set(baseRuns.flatMap { $0.audits.keys }).union(headRuns.flatMap { $0.audits.keys }).sorted().compactMap { id in
            entry(.audit, first, id, base: baseRuns.map { $0.audits[id]?.numericValue }, head: headRuns.map { $0.audits[id]?.numericValue },
                  unit: (headRuns + baseRuns).lazy.compactMap { $0.audits[id]?.numericUnit }.first ?? "",
                  effect: MinimumEffectTable.audit(id), policy: policy, calibration: calibration, sameSession: sameSession,
                  baseScore: SampleSummary.median(baseRuns.compactMap { $0.audits[id]?.score }),
                  headScore: SampleSummary.median(headRuns.compactMap { $0.audits[id]?.score }))
        }
        let metrics = Set(baseRuns.flatMap { $0.metrics.keys }).union(headRuns.flatMap { $0.metrics.keys }).sorted().compactMap { name in
            entry(.metric, first, name, base: baseRuns.map { $0.metrics[name]?.value }, head: headRuns.map { $0.metrics[name]?.value },
                  unit: (headRuns + baseRuns).lazy.compactMap { $0.metrics[name]?.unit }.first ?? "",
                  effect: MinimumEffectTable.metric(name), policy: policy, calibration: calibration, sameSession: sameSession,
                  baseScore: nil, headScore: nil)
        }
        return WorkloadComparison(workload: first.workload, scenario: first.scenario,
                                  baseRepetitions: baseRuns.count, headRepetitions: headRuns.count,
                                  baseScore: SampleSummary.median(baseRuns.compactMap(\.score)),
                                  headScore: SampleSummary.median(headRuns.compactMap(\.score)),
                                  audits: audits, metrics: metrics)
    }

    private static func entry(_ kind: ComparisonEntry.Kind, _ run: RunReport, _ name: String, base: [Double?], head: [Double?],
                              unit: String, effect: MinimumEffect, policy: ComparisonPolicy, calibration: NoiseCalibration?, sameSession: Bool,
                              baseScore: Double?, headScore: Double?) -> ComparisonEntry? {
        let baseValues = base.compactMap { $0 }.filter(\.isFinite)
        let headValues = head.compactMap { $0 }.filter(\.isFinite)
        // Neither side measured it (not applicable, or unavailable here): nothing to compare.
        guard !(baseValues.isEmpty && headValues.isEmpty) else { return nil }
        var valuePolicy = effect.policy(base: policy)
        var widened: (configured: Double, noise: Double)?
        if let noise = calibration?.entry(workload: run.workload, scenario: run.scenario, kind: kind, name: name)?.noise,
           let baseMedian = SampleSummary.median(baseValues) {
            let configured = MetricComparison.practicalThreshold(baseMedian: baseMedian, policy: valuePolicy)
            let floor = NoiseCalibration.noiseMultiple * noise
            if floor > configured {
                valuePolicy.minAbsoluteChange = floor
                widened = (configured, noise)
            }
        }
        // Audits' values are lower-is-better by their scoring curves; a metric says which way it goes.
        let direction = kind == .metric ? MetricCatalogue.direction(of: name) : .lowerIsBetter
        guard let comparison = try? MetricComparison(base: baseValues, head: headValues, direction: direction,
                                                     policy: valuePolicy) else { return nil }
        var entry = ComparisonEntry(kind: kind, workload: run.workload, scenario: run.scenario, name: name, unit: unit,
                                    comparison: comparison, minimumEffect: effect, baseScore: baseScore, headScore: headScore)
        if let widened {
            entry.configuredThreshold = widened.configured
            entry.noise = widened.noise
            entry.reason += " (threshold widened from \(DisplayFormat.number(widened.configured)) to 3 × the calibrated noise \(DisplayFormat.number(widened.noise)))"
        }
        // Counts before times: a deterministic counter is judged exactly.
        if kind == .metric {
            let floor = sameSession ? 0 : (comparison.threshold ?? 0)
            if let exact = CountChannel.judge(name: name, base: baseValues, head: headValues, direction: direction,
                                              minimumRepetitions: policy.minimumRepetitions, alpha: policy.alpha, floor: floor) {
                entry.verdict = exact.verdict
                entry.reason = exact.reason
                entry.channel = .count
                entry.threshold = exact.tolerance
                // In one session a deterministic counter that moved gates whatever its statistical
                // table says: nothing but the code moves it.
                if sameSession { entry.minimumEffect.gating = true }
            } else if entry.verdict != .insufficientData, let note = CountChannel.nondeterministicNote(name: name, base: baseValues, head: headValues) {
                entry.reason += "; " + note
            }
        }
        return entry
    }

    private static func groups(_ runs: [RunReport]) -> (order: [ResultKey], runs: [ResultKey: [RunReport]]) {
        var order: [ResultKey] = []
        var grouped: [ResultKey: [RunReport]] = [:]
        for run in runs {
            let key = run.resultKey
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(run)
        }
        return (order, grouped)
    }
}
