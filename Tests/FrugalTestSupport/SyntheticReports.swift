import FrugalCore

/// Reports built by hand, so comparison, assertions and the report writers are tested with exact
/// numbers. Shared by the test targets (FrugalCoreTests, FrugalReportTests): a test-support module,
/// as swift-nio's NIOTestUtils, not part of any product.
public enum SyntheticReports {
    public static let environment = EnvironmentInfo(hostname: "h", kernel: "k", cores: 2, memoryBytes: 1, virtualMachine: true,
                                             papiVersion: nil, counters: [], notes: [])

    /// One run whose metrics and audit values are given; audit scores follow the catalogue's curves.
    public static func run(_ workload: String, repetition: Int, metrics: [String: Double], audits: [String: Double]) -> RunReport {
        var results: [String: AuditResult] = [:]
        for (id, value) in audits {
            let rule = RuleCatalogue.rule(id)!
            results[id] = AuditResult(id: id, title: rule.title, score: rule.scoring.score(value), scoreDisplayMode: .numeric,
                                      numericValue: value, numericUnit: rule.unit, displayValue: "\(value)")
        }
        let categories = ReportBuilder.categoryScores(results.mapValues { $0.score })
        return RunReport(workload: workload, scenario: "standard", repetition: repetition, outcome: .completed, outcomeDetail: nil,
                         exitStatus: nil, durationSeconds: 10,
                         metrics: metrics.mapValues { MetricValue($0, unit: "count", source: "test") },
                         timeline: Timeline(states: [], handlers: [], steps: [], activity: [], duration: 10),
                         audits: results, categories: categories, score: ReportBuilder.overallScore(categories, auditScores: results.mapValues { $0.score }))
    }

    /// A report of `workload` with one run per value in `wakeups` (as `cpu.wakeups`) and
    /// `idleRates` (as `power.avoid-polling`'s value).
    public static func report(_ workload: String = "news.coalesced", wakeups: [Double], idleRates: [Double]) -> Report {
        let runs = zip(wakeups, idleRates).enumerated().map { index, pair in
            run(workload, repetition: index + 1, metrics: [MetricName.cpuWakeups: pair.0], audits: ["power.avoid-polling": pair.1])
        }
        return Report(tool: ToolInfo(version: "test"), generatedAt: "2026-11-21T00:00:00Z", environment: environment,
                      runs: runs, results: ReportBuilder.aggregate(runs))
    }
}
