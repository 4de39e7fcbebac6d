/// What one result of a report is made of: a workload under a scenario. Runs with the same key
/// are repetitions of one result (medians, baselines, comparisons, fixes group by it). A type,
/// not a joined string: no separator can collide with a name, and the label is said once.
public struct ResultKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var workload: String
    public var scenario: String

    public init(workload: String, scenario: String) {
        self.workload = workload
        self.scenario = scenario
    }

    /// `workload · scenario`, as reports and messages name a result.
    public var description: String { "\(workload) · \(scenario)" }

    public static func < (a: ResultKey, b: ResultKey) -> Bool { (a.workload, a.scenario) < (b.workload, b.scenario) }
}

extension RunReport {
    /// The result this run is a repetition of.
    public var resultKey: ResultKey { ResultKey(workload: workload, scenario: scenario) }
}

extension WorkloadResult {
    /// This result's key.
    public var resultKey: ResultKey { ResultKey(workload: workload, scenario: scenario) }
}
