/// Builds the report from raw run records: metrics, audits, categories, aggregation. Pure.
public enum ReportBuilder {
    /// The report of `records`.
    public static func build(records: [RunRecord], tool: ToolInfo, generatedAt: String, environment: EnvironmentInfo) -> Report {
        let runs = records.map(runReport)
        return Report(tool: tool, generatedAt: generatedAt, environment: environment, runs: runs, results: aggregate(runs))
    }

    /// Analyses one run.
    public static func runReport(_ record: RunRecord) -> RunReport {
        let analysis = RunAnalysis(record)
        let metrics = MetricExtraction.metrics(of: analysis)
        var audits = record.blackBox ? blackBoxAudits(analysis, metrics: metrics) : Audits.evaluate(analysis, metrics: metrics)
        // A run the user stopped, or the harness failed in, ended early for reasons not the app's:
        // its numbers are kept, but no audit judges it.
        switch record.outcome {
        case .interrupted: audits = markNotApplicable(audits, except: [], reason: "the run was interrupted before its scenario ended")
        case .harnessError:
            audits = markNotApplicable(audits, except: [], reason: "the harness failed during the run: \(record.outcomeDetail ?? "see the run's outcome")")
        default: break
        }
        let categories = categoryScores(audits.mapValues { $0.score })
        var report = RunReport(workload: record.workload, scenario: record.scenario, repetition: record.repetition,
                               outcome: record.outcome, outcomeDetail: record.outcomeDetail, exitStatus: record.exitStatus,
                               durationSeconds: analysis.wallSeconds, metrics: metrics, timeline: Timeline(analysis),
                               audits: audits, categories: categories,
                               score: overallScore(categories, auditScores: audits.mapValues { $0.score }),
                               energy: EnergyEstimator.estimate(metrics: metrics, seconds: analysis.wallSeconds))
        let files = DiskActivity(analysis).files
        report.files = files.isEmpty ? nil : files
        report.processes = RunProcessesSummary(record, timeline: report.timeline)
        report.server = RunServerSummary(record.network)
        report.tls = RunTLSSummary(record.network?.tls)
        report.threads = RunThreadsSummary(analysis)
        report.wakeupCauses = analysis.wakeupCauses
        report.blackBox = record.blackBox ? true : nil
        return report
    }

    /// `results` with every audit not in `kept` made not applicable for `reason`: no score, no
    /// value, no evidence, so it counts in no category and not overall. For a whole kind of run
    /// whose audits cannot apply (a command, a scenario without app states).
    public static func markNotApplicable(_ results: [String: AuditResult], except kept: Set<String>, reason: String) -> [String: AuditResult] {
        var results = results
        for (id, result) in results where !kept.contains(id) {
            results[id] = result.markedNotApplicable(reason: reason)
        }
        return results
    }

    /// Category scores: the weighted mean of the scored audits of each category.
    public static func categoryScores(_ scores: [String: Double?]) -> [String: CategoryScore] {
        var categories: [String: CategoryScore] = [:]
        for category in RuleCategory.allCases {
            let rules = RuleCatalogue.all.filter { $0.category == category && scores[$0.id] != nil }
            guard !rules.isEmpty else { continue }
            var total = 0.0, weights = 0.0
            for rule in rules {
                if let score = scores[rule.id] ?? nil {
                    total += score * rule.weight
                    weights += rule.weight
                }
            }
            categories[category.rawValue] = CategoryScore(id: category.rawValue, title: category.title,
                                                          score: weights > 0 ? total / weights : nil,
                                                          auditIDs: rules.map(\.id))
        }
        return categories
    }

    /// The share of the overall score that is the weakest applicable audit (docs/SCORING.md).
    public static let weakestAuditShare = 0.5

    /// The overall score: half the weakest scored audit, half the weighted mean of the categories
    /// that have a score. The weakest half keeps a promise a reader takes from the number: 0.9
    /// or more means no audit is below 0.9, and an app that fails any audit (< 0.5) scores at
    /// most 0.75, at least 0.15 below any app that passes them all, however many audits apply.
    /// The mean half keeps every other audit counting, so fixing any of them raises the score.
    /// Without audit scores (older callers), the weighted mean alone.
    public static func overallScore(_ categories: [String: CategoryScore], auditScores: [String: Double?] = [:]) -> Double? {
        var total = 0.0, weights = 0.0
        for category in RuleCategory.allCases {
            if let score = categories[category.rawValue]?.score {
                total += score * category.weight
                weights += category.weight
            }
        }
        guard weights > 0 else { return nil }
        let mean = total / weights
        guard let weakest = auditScores.values.compactMap({ $0 }).min() else { return mean }
        return weakestAuditShare * weakest + (1 - weakestAuditShare) * mean
    }

    /// Groups runs by workload and scenario (in first-seen order) and takes medians.
    public static func aggregate(_ runs: [RunReport]) -> [WorkloadResult] {
        RunReport.groupedByResult(runs).compactMap { group in
            guard let first = group.first else { return nil }
            var outcomes: [String: Int] = [:]
            for run in group { outcomes[run.outcome.rawValue, default: 0] += 1 }
            var audits: [String: AggregatedAudit] = [:]
            let ids = Set(group.flatMap { $0.audits.keys })
            for id in ids {
                let results = group.compactMap { $0.audits[id] }
                guard let template = results.first else { continue }
                let values = group.map { $0.audits[id]?.numericValue }
                let present = values.compactMap { $0 }
                let scores = results.compactMap(\.score)
                let medianValue = SampleSummary.median(present)
                let spread = (try? SampleSummary(present)) ?? nil
                let medianScore = SampleSummary.median(scores)
                let mode = results.first(where: { $0.score != nil })?.scoreDisplayMode ?? template.scoreDisplayMode
                let display: String
                if let medianValue {
                    display = group.count > 1
                        ? "median \(HumanUnits.format(medianValue, unit: template.numericUnit)) over \(present.count) runs"
                        : template.displayValue
                } else {
                    display = template.displayValue
                }
                let median = AuditResult(id: id, title: template.title, score: medianScore, scoreDisplayMode: mode,
                                         numericValue: medianValue, numericUnit: template.numericUnit, displayValue: display,
                                         explanation: medianScore == nil ? template.explanation : nil)
                audits[id] = AggregatedAudit(median: median, values: values, minValue: present.min(),
                                             maxValue: present.max(), madValue: spread?.mad)
            }
            let categories = categoryScores(audits.mapValues { $0.score })
            var metrics: [String: AggregatedMetric] = [:]
            for name in Set(group.flatMap { $0.metrics.keys }) {
                metrics[name] = AggregatedMetric(runs: group.map { $0.metrics[name] })
            }
            let energies = group.compactMap { run in run.energy.map { (energy: $0, seconds: run.durationSeconds) } }
            return WorkloadResult(workload: first.workload, scenario: first.scenario, repetitions: group.count,
                                  outcomes: outcomes, audits: audits, categories: categories,
                                  score: overallScore(categories, auditScores: audits.mapValues { $0.score }), metrics: metrics,
                                  energy: EnergyEstimator.aggregate(energies))
        }
    }
}
