/// The assertions' results over a report.
public struct AssertionOutcome: Codable, Sendable, Equatable {
    public var preset: String?
    /// Every checked assertion on every workload result, failures first.
    public var results: [AssertionResult]
    /// Whether an `error`-level assertion failed (the run exits 2).
    public var failed: Bool { results.contains { !$0.passed && $0.level == .error } }

    public init(preset: String?, results: [AssertionResult]) {
        self.preset = preset
        self.results = results
    }

    private enum CodingKeys: String, CodingKey { case preset, results, failed }
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        preset = try container.decodeIfPresent(String.self, forKey: .preset)
        results = try container.decode([AssertionResult].self, forKey: .results)
    }
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(preset, forKey: .preset)
        try container.encode(results, forKey: .results)
        try container.encode(failed, forKey: .failed)
    }
}

/// One assertion checked against one workload result.
public struct AssertionResult: Codable, Sendable, Equatable {
    public var workload: String
    public var scenario: String
    /// The audit id or `categories:<id>`.
    public var target: String
    public var level: AssertionLevel
    /// `minScore` or `maxNumericValue`.
    public var bound: String
    public var expected: Double
    /// The median over repetitions; nil when there was none (not applicable or unavailable).
    public var actual: Double?
    public var passed: Bool
    public var message: String
}

/// Checks assertions against a report's aggregated results. Pure.
public enum AssertionEvaluator {
    /// Every assertion that is not `off`, on every result. A target without a value (not
    /// applicable to the scenario, or unavailable here) passes, and the message says why: an
    /// assertion cannot fail on what was not measured, nor pretend it was met.
    public static func evaluate(_ set: AssertionSet, results: [WorkloadResult]) -> AssertionOutcome {
        var outcomes: [AssertionResult] = []
        for result in results {
            for assertion in set.assertions where assertion.level != .off {
                let score: Double?
                let value: Double?
                let unit: String
                var missing: String?
                switch assertion.target {
                case .audit(let id):
                    let audit = result.audits[id]
                    score = audit?.score
                    value = audit?.numericValue
                    unit = audit?.numericUnit ?? ""
                    missing = audit == nil ? "not run" : (audit?.explanation ?? "no value")
                case .category(let category):
                    score = result.categories[category.rawValue]?.score
                    value = nil
                    unit = ""
                    missing = "no scored audit in the category"
                }
                var bounds: [(String, Double, Double?)] = []
                if let minScore = assertion.minScore { bounds.append(("minScore", minScore, score)) }
                if let maxValue = assertion.maxNumericValue { bounds.append(("maxNumericValue", maxValue, value)) }
                for (bound, expected, actual) in bounds {
                    let passed: Bool
                    let message: String
                    if let actual {
                        passed = bound == "minScore" ? actual >= expected : actual <= expected
                        let shown = bound == "minScore" ? DisplayFormat.number(actual) : "\(DisplayFormat.number(actual)) \(unit)"
                        message = "\(assertion.target) \(bound == "minScore" ? "score" : "value") \(shown) (median of \(result.repetitions)) \(passed ? "meets" : "fails") \(bound) \(DisplayFormat.number(expected))"
                    } else {
                        passed = true
                        message = "\(assertion.target) has no value to check (\(missing ?? "none")); not counted as a failure"
                    }
                    outcomes.append(AssertionResult(workload: result.workload, scenario: result.scenario,
                                                    target: assertion.target.description, level: assertion.level,
                                                    bound: bound, expected: expected, actual: actual, passed: passed,
                                                    message: message))
                }
            }
        }
        let ordered = outcomes.enumerated().sorted { lhs, rhs in
            let l = rank(lhs.element), r = rank(rhs.element)
            return l != r ? l < r : lhs.offset < rhs.offset
        }.map(\.element)
        return AssertionOutcome(preset: set.preset, results: ordered)
    }

    private static func rank(_ result: AssertionResult) -> Int {
        if result.passed { return 2 }
        return result.level == .error ? 0 : 1
    }
}
