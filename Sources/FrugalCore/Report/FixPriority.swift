/// One audit that does not pass, with what fixing it would gain: the rise of its workload's
/// overall score, and where the model gives one, the energy, bytes or time it would save.
/// Renderers (HTML, Markdown) list these first, largest gain first, as Lighthouse lists its
/// opportunities. Pure.
public struct FixPriority: Sendable, Equatable {
    public var workload: String
    public var scenario: String
    public var auditID: String
    public var title: String
    public var category: RuleCategory?
    /// The audit's median score over the repetitions.
    public var score: Double
    /// The workload's overall score now.
    public var workloadScore: Double?
    /// Points (0–100) the workload's overall score would rise if this audit scored 1, the other
    /// audits unchanged: `ReportBuilder.overallScore`, recomputed.
    public var scoreGain: Double
    /// The audit's median value, its unit, and the value it must reach to pass (the 0.9 control
    /// point of a log-normal curve, the largest passing value of a binary one).
    public var value: Double?
    public var unit: String
    public var passLine: Double?
    public var displayValue: String
    /// Estimated savings of a fix, largest first; empty when the model gives none.
    public var savings: [Saving]
    /// A few pieces of evidence, from the first run that has any.
    public var evidence: [Evidence]

    /// One estimated saving: an amount in a unit (`J`, `bytes`, `ms`...), over a span (`per
    /// hour idle`, `per run`), and how it was estimated.
    public struct Saving: Sendable, Equatable {
        public enum Kind: String, Sendable { case energy, bytes, time, rate }
        public var kind: Kind
        public var amount: Double
        public var unit: String
        public var span: String
        public var basis: String
    }

    /// At most this many pieces of evidence per item.
    public static let evidenceLimit = 3

    /// Every audit of the report that does not pass, largest score gain first (then largest
    /// energy saving, then lowest score), across workloads.
    public static func rank(_ report: Report, profile: DeviceProfile = .reference) -> [FixPriority] {
        var runsByResult: [ResultKey: [RunReport]] = [:]
        for run in report.runs { runsByResult[run.resultKey, default: []].append(run) }
        let all = report.results.flatMap { result in
            FixPriority.items(for: result, runs: runsByResult[result.resultKey] ?? [], profile: profile)
        }
        return sorted(all)
    }

    /// The audits of one workload result that do not pass, largest gain first.
    public static func items(for result: WorkloadResult, runs: [RunReport], profile: DeviceProfile = .reference) -> [FixPriority] {
        let scores = result.audits.mapValues { $0.score }
        let items: [FixPriority] = result.audits.values.compactMap { audit in
            guard let score = audit.score, ScoreBand(score: score) != .pass else { return nil }
            var fixed = scores
            fixed[audit.id] = 1
            let after = ReportBuilder.overallScore(ReportBuilder.categoryScores(fixed), auditScores: fixed)
            let now = ReportBuilder.overallScore(ReportBuilder.categoryScores(scores), auditScores: scores)
            let gain = max(0, ((after ?? 0) - (now ?? 0)) * 100)
            let rule = RuleCatalogue.rule(audit.id)
            let evidence = runs.lazy.compactMap { run -> [Evidence]? in
                guard let items = run.audits[audit.id]?.evidence, !items.isEmpty else { return nil }
                return Array(items.prefix(evidenceLimit))
            }.first ?? []
            return FixPriority(workload: result.workload, scenario: result.scenario, auditID: audit.id, title: audit.title,
                               category: rule?.category, score: score, workloadScore: result.score, scoreGain: gain,
                               value: audit.numericValue, unit: audit.numericUnit, passLine: rule.map { passLine($0.scoring) },
                               displayValue: audit.displayValue,
                               savings: savings(audit, rule: rule, workload: result, profile: profile), evidence: evidence)
        }
        return sorted(items)
    }

    /// `items` largest gain first: score gain, then energy saved, then lowest score.
    public static func sorted(_ items: [FixPriority]) -> [FixPriority] {
        items.sorted { a, b in
            if abs(a.scoreGain - b.scoreGain) > 0.05 { return a.scoreGain > b.scoreGain }
            let energyA = a.savings.first { $0.kind == .energy }?.amount ?? 0
            let energyB = b.savings.first { $0.kind == .energy }?.amount ?? 0
            if energyA != energyB { return energyA > energyB }
            if a.score != b.score { return a.score < b.score }
            return (a.workload, a.scenario, a.auditID) < (b.workload, b.scenario, b.auditID)
        }
    }

    /// The value that passes: scores 0.9 on a log-normal curve, or the binary limit.
    public static func passLine(_ curve: ScoringCurve) -> Double {
        switch curve {
        case .logNormal(let good, _): return good
        case .binary(let maxPassing): return maxPassing
        }
    }

    /// What a fix would save, as far as the models go. Every estimate brings the value to the
    /// pass line, not to zero: that is what the audit asks for.
    static func savings(_ audit: AggregatedAudit, rule: Rule?, workload: WorkloadResult, profile: DeviceProfile) -> [Saving] {
        let energy = workload.energy
        guard let value = audit.numericValue, let rule else { return [] }
        let line = passLine(rule.scoring)
        let excess = value - line
        guard excess > 0 else { return [] }
        var result: [Saving] = []
        switch (audit.id, audit.numericUnit) {
        case ("power.avoid-polling", "1/s"), ("lifecycle.quiesce-when-inactive", "1/s"):
            let joules = excess * 3600 * profile.cpu.wakeupJoules.value
            let span = audit.id == "power.avoid-polling" ? "per hour idle" : "per hour inactive"
            result.append(Saving(kind: .energy, amount: joules, unit: "J", span: span,
                                 basis: "\(DisplayFormat.number(excess)) fewer wakeups/s × 3600 s × \(HumanUnits.scaledSI(profile.cpu.wakeupJoules.value, unit: "J")) per wakeup (\(profile.cpu.name))"))
        case ("lifecycle.minimal-background-work", "s/min"):
            let joules = excess * 60 * profile.cpu.runningWatts.value
            result.append(Saving(kind: .energy, amount: joules, unit: "J", span: "per hour in the background",
                                 basis: "\(DisplayFormat.number(excess)) CPU-s/min less × 60 min × \(HumanUnits.scaledSI(profile.cpu.runningWatts.value, unit: "W")) (\(profile.cpu.name))"))
        case ("network.transmit-in-bursts", _):
            if let radio = energy?.radioJoules, value > 0 {
                // The ratio is trace energy ÷ one-burst energy; at the pass line it would be `line`.
                let joules = radio - radio / value * line
                if joules > 0 {
                    result.append(Saving(kind: .energy, amount: joules, unit: "J", span: "per run",
                                         basis: "radio energy \(HumanUnits.scaledSI(radio, unit: "J")) at \(DisplayFormat.number(value))× the one-burst energy, brought to \(DisplayFormat.number(line))×"))
                }
            }
        case ("disk.avoid-frequent-writes", "1/min"):
            let joules = excess * 60 * profile.disk.operationJoules.value
            result.append(Saving(kind: .energy, amount: joules, unit: "J", span: "per hour",
                                 basis: "\(DisplayFormat.number(excess)) fewer writes/min × 60 min × \(HumanUnits.scaledSI(profile.disk.operationJoules.value, unit: "J")) per write (\(profile.disk.name))"))
        case ("disk.write-budget", "bytes/day"):
            let joules = excess * profile.disk.byteJoules.value
            result.append(Saving(kind: .energy, amount: joules, unit: "J", span: "per day",
                                 basis: "\(HumanUnits.bytes(excess)) less a day × \(HumanUnits.scaledSI(profile.disk.byteJoules.value, unit: "J")) per byte (\(profile.disk.name))"))
        case ("disk.write-changed-portions", _):
            // Amplification is bytes written ÷ bytes changed: at the pass line the same changes
            // cost `line`/`value` of the bytes.
            if let written = workload.metrics?[MetricName.diskLogicalBytesWritten]?.median, value > 0 {
                let bytes = written * (1 - line / value)
                if bytes > 0 {
                    result.append(Saving(kind: .bytes, amount: bytes, unit: "bytes", span: "per run",
                                         basis: "\(HumanUnits.bytes(written)) written at \(DisplayFormat.number(value))× the bytes that changed, brought to \(DisplayFormat.number(line))×"))
                }
            }
        default: break
        }
        // The value itself, where its unit is one a fix saves directly.
        let kind: Saving.Kind?
        switch audit.numericUnit {
        case "bytes", "bytes/day": kind = .bytes
        case "ms", "ms/min", "s/min", "s": kind = .time
        case "1/s", "1/min": kind = .rate
        default: kind = nil
        }
        if let kind {
            result.append(Saving(kind: kind, amount: excess, unit: audit.numericUnit, span: "",
                                 basis: "from \(HumanUnits.format(value, unit: audit.numericUnit)) to the pass line \(HumanUnits.format(line, unit: audit.numericUnit))"))
        }
        return result
    }
}
