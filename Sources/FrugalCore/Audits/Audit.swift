import Foundation

/// What an audit measured on a run, before scoring.
public enum AuditMeasurement: Sendable {
    /// The number, how to show it, and its evidence.
    case value(Double, display: String, evidence: [Evidence])
    /// The run had nothing to judge (the reason).
    case notApplicable(String)
    /// The number could not be measured (the reason).
    case unavailable(String)
}

/// Measures one rule's number on a run. Each category keeps its audits in its own file
/// (`Audits+Power.swift`, ...), listed in `Audits.all`.
public struct Audit: Sendable {
    public let rule: Rule
    let measure: @Sendable (RunAnalysis, [String: MetricValue]) -> AuditMeasurement

    /// An audit of `ruleID`, which must be in the catalogue.
    public init(_ ruleID: String, measure: @escaping @Sendable (RunAnalysis, [String: MetricValue]) -> AuditMeasurement) {
        guard let rule = RuleCatalogue.rule(ruleID) else { preconditionFailure("no rule \(ruleID) in the catalogue") }
        self.rule = rule
        self.measure = measure
    }

    /// Measures and scores the run.
    public func evaluate(_ analysis: RunAnalysis, metrics: [String: MetricValue]) -> AuditResult {
        switch measure(analysis, metrics) {
        case .value(let value, let display, let evidence):
            let mode: ScoreDisplayMode
            if case .binary = rule.scoring { mode = .binary } else { mode = .numeric }
            return AuditResult(id: rule.id, title: rule.title, score: rule.scoring.score(value), scoreDisplayMode: mode,
                               numericValue: value, numericUnit: rule.unit, displayValue: display, evidence: evidence)
        case .notApplicable(let reason):
            return AuditResult(id: rule.id, title: rule.title, score: nil, scoreDisplayMode: .notApplicable,
                               numericValue: nil, numericUnit: rule.unit, displayValue: "not applicable", explanation: reason)
        case .unavailable(let reason):
            return AuditResult(id: rule.id, title: rule.title, score: nil, scoreDisplayMode: .unavailable,
                               numericValue: nil, numericUnit: rule.unit, displayValue: "unavailable", explanation: reason)
        }
    }

    /// The value of `metric`, or the measurement that says why it is missing.
    static func require(_ metrics: [String: MetricValue], _ name: String) -> Result<Double, AuditFailure> {
        guard let metric = metrics[name] else { return .failure(AuditFailure(reason: "metric \(name) was not collected")) }
        guard let value = metric.value else { return .failure(AuditFailure(reason: metric.unavailable ?? "\(name) is unavailable")) }
        return .success(value)
    }
}

/// Why an audit could not get its number.
struct AuditFailure: Error { var reason: String }

/// Every audit this version runs.
public enum Audits {
    public static let all: [Audit] = power + disk + memory + network + responsiveness + lifecycle

    /// Runs every audit on `analysis`.
    public static func evaluate(_ analysis: RunAnalysis, metrics: [String: MetricValue]) -> [String: AuditResult] {
        var results: [String: AuditResult] = [:]
        for audit in all { results[audit.rule.id] = audit.evaluate(analysis, metrics: metrics) }
        return results
    }
}

/// Formats numbers for display values: three significant digits at most.
public enum DisplayFormat {
    public static func number(_ value: Double) -> String {
        if value == 0 { return "0" }
        if !value.isFinite { return value.isNaN ? "NaN" : (value > 0 ? "∞" : "-∞") }
        // Beyond 1e15 a Double has no meaningful units digit: scientific notation, never a trap.
        if abs(value) >= 1e15 { return String(format: "%.3g", value) }
        if abs(value) >= 100 { return String(Int(value.rounded())) }
        if abs(value) >= 10 { return trimmed(String(format: "%.1f", value)) }
        return trimmed(String(format: "%.2f", value))
    }

    private static func trimmed(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var text = text
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
