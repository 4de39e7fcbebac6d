import FrugalCore

/// Runs plans one after another and reports progress; one workload's failure is a finding and
/// does not stop the others.
public final class SuiteRunner {
    /// What the runner is doing, for progress lines on standard error.
    public enum Progress: Sendable {
        case starting(index: Int, of: Int, plan: RunPlan)
        case finished(index: Int, of: Int, record: RunRecord)
    }

    let runner: ScenarioRunner

    public init(options: HarnessOptions) { runner = ScenarioRunner(options: options) }

    /// Runs every plan; throws only when the harness itself fails.
    public func run(_ plans: [RunPlan], progress: (Progress) -> Void = { _ in }) throws -> [RunRecord] {
        var records: [RunRecord] = []
        for (index, plan) in plans.enumerated() {
            progress(.starting(index: index + 1, of: plans.count, plan: plan))
            let record = try runner.run(plan)
            records.append(record)
            progress(.finished(index: index + 1, of: plans.count, record: record))
        }
        return records
    }
}
