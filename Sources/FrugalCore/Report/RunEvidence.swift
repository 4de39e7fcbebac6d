/// What a suite gathered, kept beside its report so the report can be made again without running
/// anything (`frugal reaudit`): Lighthouse's split of gathering from auditing. The records are the
/// raw evidence (event streams, `/proc` samples, the proxy's requests, exit records, wakeup
/// traces); metrics, audits, categories and scores are recomputed from them by the rules of the
/// Frugal doing the re-audit, so a rule change is checked against recorded runs in seconds, and
/// old runs are re-scored after an upgrade.
///
/// What is not evidence stays out: a comparison against a baseline (give the baseline again) and
/// the history's trends.
public struct RunEvidence: Codable, Sendable {
    /// Bumped on an incompatible change of this structure (not of the records: ``RunRecord``'s
    /// fields are optional where older records lack them).
    public static let currentFormat = 1
    /// The file's name in a report directory.
    public static let fileName = "evidence.json"

    public var format: Int
    /// The Frugal that gathered the evidence (the re-audit's report names its own).
    public var gatheredBy: ToolInfo
    public var generatedAt: String
    public var environment: EnvironmentInfo
    public var shard: ShardInfo?
    public var schedule: ScheduleSummary?
    /// The assertions the suite was run with (`frugal.yml`), evaluated again on the new results.
    public var assertions: AssertionSet?
    /// The rule packs every run was judged by as well (`--rules apple-limits`).
    public var rulePacks: [String]?
    /// `--trace`'s choice: `always`, `never`, or nil (traces within the budget).
    public var traces: String?
    /// Every run's raw facts, in the report's order.
    public var records: [RunRecord]

    public init(gatheredBy: ToolInfo, generatedAt: String, environment: EnvironmentInfo, shard: ShardInfo?,
                schedule: ScheduleSummary?, assertions: AssertionSet?, rulePacks: [String]? = nil, traces: String? = nil,
                records: [RunRecord]) {
        format = Self.currentFormat
        self.gatheredBy = gatheredBy
        self.generatedAt = generatedAt
        self.environment = environment
        self.shard = shard
        self.schedule = schedule
        self.assertions = assertions
        self.rulePacks = rulePacks
        self.traces = traces
        self.records = records
    }

    /// The report these records make under the current rules, as `frugal run` made it: runs,
    /// results, shard, schedule, assertions and rule packs (traces are the report set's, drawn
    /// by its writer). `tool` is the Frugal auditing now.
    public func report(tool: ToolInfo) -> Report {
        var report = ReportBuilder.build(records: records, tool: tool, generatedAt: generatedAt, environment: environment)
        report.shard = shard
        report.schedule = schedule
        if let assertions { report.assertions = AssertionEvaluator.evaluate(assertions, results: report.results) }
        if rulePacks?.contains(AppleLimits.packName) == true {
            for index in report.runs.indices { report.runs[index].appleLimits = AppleLimits.evaluate(report.runs[index]) }
        }
        return report
    }
}

/// How a re-audit's scores differ from the report the run made: each workload's median audit
/// scores and overall score, before and after. Pure.
public enum ReauditChanges {
    /// One changed score.
    public struct Change: Sendable, Equatable {
        public var workload: String
        public var scenario: String
        /// The audit's id, or `overall`.
        public var audit: String
        public var before: Double?
        public var after: Double?
    }

    /// The scores that moved by more than `tolerance` (or appeared, or went away), in the
    /// reports' order of results.
    public static func between(_ before: Report, _ after: Report, tolerance: Double = 0.005) -> [Change] {
        var old: [ResultKey: WorkloadResult] = [:]
        for result in before.results { old[result.resultKey] = result }
        var changes: [Change] = []
        for result in after.results {
            let previous = old[result.resultKey]
            if moved(previous?.score, result.score, tolerance) {
                changes.append(Change(workload: result.workload, scenario: result.scenario, audit: "overall", before: previous?.score, after: result.score))
            }
            for id in Set(result.audits.keys).union(previous.map { Array($0.audits.keys) } ?? []).sorted() {
                let was = previous?.audits[id]?.median.score ?? nil
                let now = result.audits[id]?.median.score ?? nil
                if moved(was, now, tolerance) {
                    changes.append(Change(workload: result.workload, scenario: result.scenario, audit: id, before: was, after: now))
                }
            }
        }
        return changes
    }

    private static func moved(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): return false
        case (let a?, let b?): return abs(a - b) > tolerance
        default: return true
        }
    }
}
