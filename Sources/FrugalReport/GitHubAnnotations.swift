import FrugalCore

/// GitHub Actions workflow commands (`::error ...`, `::warning ...`) for failing error-level
/// assertions, regressions against the baseline and, without assertions, audits in the fail band.
public enum GitHubAnnotations {
    public static func render(_ report: Report) -> [String] {
        var lines: [String] = []
        if let assertions = report.assertions {
            for check in assertions.results where !check.passed {
                let kind = check.level == .error ? "error" : "warning"
                lines.append("::\(kind) title=\(property("frugal: \(check.target) (\(check.workload))"))::\(data("\(check.workload) · \(check.scenario): \(check.message)"))")
            }
        } else {
            for result in report.results {
                for audit in result.audits.values.sorted(by: { $0.id < $1.id }) {
                    guard let score = audit.score, score < 0.5 else { continue }
                    lines.append("::warning title=\(property("frugal: \(audit.id) (\(result.workload))"))::\(data("\(result.workload) · \(result.scenario): \(audit.id) scores \(DisplayFormat.score(score)) — \(audit.displayValue)"))")
                }
            }
        }
        for regression in report.comparison?.regressions ?? [] {
            lines.append("::error title=\(property("frugal regression: \(regression.name) (\(regression.workload))"))::\(data("\(regression.workload) · \(regression.scenario): \(regression.name) \(regression.reason)"))")
        }
        return lines
    }

    /// Escaping of a workflow command's message (GitHub's `escapeData`, controls made visible).
    static func data(_ text: String) -> String { TextSanitizer.annotationData(text) }

    /// Escaping of a workflow command's property (GitHub's `escapeProperty`).
    static func property(_ text: String) -> String { TextSanitizer.annotationProperty(text) }
}
