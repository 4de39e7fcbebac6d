/// A baseline without timelines: for each workload and scenario, every repetition's value of
/// each audit and metric (what ``ReportComparator`` compares) and nothing else. A full report of
/// the 20 good workloads over 5 repetitions is about 6 MB, nearly all timelines and evidence;
/// this is about 40 times smaller. `frugal compare` and `run --baseline` read it as they read a
/// full report (``report()`` rebuilds the runs they need).
public struct CompactBaseline: Codable, Sendable {
    /// The value of `format` that tells a compact baseline from a full report.
    public static let formatName = "frugal-baseline"

    public var format: String
    /// The report schema version this baseline belongs with.
    public var schemaVersion: Int
    public var tool: ToolInfo
    public var generatedAt: String
    /// The machine the baseline was measured on (comparing on another one warns).
    public var environment: EnvironmentInfo
    /// Machines besides `environment` whose runs are in it (a merge of shards from several).
    public var otherEnvironments: [EnvironmentInfo]?
    public var workloads: [Workload]

    /// One workload under one scenario; every array has one entry per repetition, in run order.
    public struct Workload: Codable, Sendable, Equatable {
        public var workload: String
        public var scenario: String
        public var outcomes: [RunOutcome]
        public var durationSeconds: [Double]
        /// Each repetition's overall score.
        public var scores: [Double?]
        public var audits: [String: Audit]
        public var metrics: [String: Metric]
    }

    public struct Audit: Codable, Sendable, Equatable {
        public var title: String
        public var unit: String
        public var values: [Double?]
        public var scores: [Double?]
    }

    public struct Metric: Codable, Sendable, Equatable {
        public var unit: String
        public var source: String
        public var values: [Double?]
    }

    /// The compact form of `report`: its runs' compared values, grouped as `results` groups them.
    public init(_ report: Report) {
        format = Self.formatName
        schemaVersion = report.schemaVersion
        tool = report.tool
        generatedAt = report.generatedAt
        environment = report.environment
        otherEnvironments = report.otherEnvironments
        workloads = RunReport.groupedByResult(report.runs).compactMap { runs in
            guard let first = runs.first else { return nil }
            var audits: [String: Audit] = [:]
            for id in Set(runs.flatMap { $0.audits.keys }) {
                let results = runs.map { $0.audits[id] }
                let template = results.lazy.compactMap { $0 }.first
                audits[id] = Audit(title: template?.title ?? id, unit: template?.numericUnit ?? "",
                                   values: results.map { $0?.numericValue }, scores: results.map { $0?.score })
            }
            var metrics: [String: Metric] = [:]
            for name in Set(runs.flatMap { $0.metrics.keys }) {
                let values = runs.map { $0.metrics[name] }
                let template = values.lazy.compactMap { $0 }.first
                metrics[name] = Metric(unit: template?.unit ?? "", source: template?.source ?? "", values: values.map { $0?.value })
            }
            return Workload(workload: first.workload, scenario: first.scenario, outcomes: runs.map(\.outcome),
                            durationSeconds: runs.map(\.durationSeconds), scores: runs.map(\.score),
                            audits: audits, metrics: metrics)
        }
    }

    /// A report holding one run per repetition with the baseline's values: no timelines, no
    /// evidence, no category scores. Enough to compare against and to list; the environment's
    /// notes say what it lacks.
    public func report() -> Report {
        var runs: [RunReport] = []
        for group in workloads {
            for index in group.outcomes.indices {
                var metrics: [String: MetricValue] = [:]
                for (name, metric) in group.metrics {
                    let value = index < metric.values.count ? metric.values[index] : nil
                    metrics[name] = value.map { MetricValue($0, unit: metric.unit, source: metric.source) }
                        ?? .unavailable(unit: metric.unit, source: metric.source, reason: "not measured in the baseline")
                }
                var audits: [String: AuditResult] = [:]
                for (id, audit) in group.audits {
                    let value = index < audit.values.count ? audit.values[index] : nil
                    let score = index < audit.scores.count ? audit.scores[index] : nil
                    audits[id] = AuditResult(id: id, title: audit.title, score: score,
                                             scoreDisplayMode: score == nil ? .notApplicable : .numeric,
                                             numericValue: value, numericUnit: audit.unit,
                                             displayValue: value.map { "\(DisplayFormat.number($0)) \(audit.unit)" } ?? "–",
                                             explanation: score == nil ? "no score in the baseline" : nil)
                }
                let seconds = index < group.durationSeconds.count ? group.durationSeconds[index] : 0
                runs.append(RunReport(workload: group.workload, scenario: group.scenario, repetition: index + 1,
                                      outcome: group.outcomes[index], outcomeDetail: nil, exitStatus: nil,
                                      durationSeconds: seconds, metrics: metrics,
                                      timeline: Timeline(states: [], handlers: [], steps: [], activity: [], duration: seconds),
                                      audits: audits, categories: [:],
                                      score: index < group.scores.count ? group.scores[index] : nil))
            }
        }
        var environment = environment
        environment.notes.append("read from a compact baseline (\(Self.formatName)): per-repetition values only, no timelines or evidence")
        var report = Report(tool: tool, generatedAt: generatedAt, environment: environment, runs: runs,
                            results: ReportBuilder.aggregate(runs))
        report.otherEnvironments = otherEnvironments
        return report
    }
}
