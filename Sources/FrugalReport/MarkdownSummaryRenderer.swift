import Foundation
import FrugalCore

/// Renders `summary.md`: a summary fit for a pull-request comment. Regressions against the
/// baseline (worst first) and failing assertions come before the scores.
public enum MarkdownSummaryRenderer {
    public static func render(_ report: Report) -> String {
        var lines: [String] = ["# Frugal summary", ""]
        lines.append("\(cell(report.tool.name)) \(cell(report.tool.version)) · \(cell(report.generatedAt)) · \(cell(report.environment.hostname))")
        lines.append("")
        if let comparison = report.comparison { lines += comparisonLines(comparison) }
        if let assertions = report.assertions { lines += assertionLines(assertions) }
        lines.append("## Scores")
        lines.append("")
        lines.append("| workload | scenario | runs | outcome | overall | energy | failing audits |")
        lines.append("|---|---|---|---|---|---|---|")
        for result in report.results {
            let outcomes = result.outcomes.sorted { $0.key < $1.key }.map { "\(cell($0.key)) ×\($0.value)" }.joined(separator: ", ")
            let failing = result.audits.values.filter { ($0.score ?? 1) < 0.5 }.sorted { ($0.score ?? 0) < ($1.score ?? 0) }
                .map { "`\(code($0.id))` \(score($0.score))" }.joined(separator: ", ")
            lines.append("| \(cell(result.workload)) | \(cell(result.scenario)) | \(result.repetitions) | \(outcomes) | \(score(result.score)) | \(energy(result.energy)) | \(failing.isEmpty ? "none" : failing) |")
        }
        lines.append("")
        lines.append("## Audits")
        lines.append("")
        for result in report.results {
            lines.append("### \(cell(result.workload)) · \(cell(result.scenario))")
            lines.append("")
            lines.append("| audit | score | value |")
            lines.append("|---|---|---|")
            for audit in result.audits.values.sorted(by: { ($0.score ?? 2, $0.id) < ($1.score ?? 2, $1.id) }) {
                lines.append("| `\(code(audit.id))` | \(score(audit.score)) | \(cell(audit.score == nil ? (audit.explanation ?? audit.displayValue) : audit.displayValue)) |")
            }
            lines.append("")
        }
        lines.append("Scores are 0–100: pass ≥ 90, average 50–89, fail < 50.")
        return lines.joined(separator: "\n") + "\n"
    }

    static func energy(_ energy: AggregatedEnergy?) -> String {
        guard let energy, let total = energy.totalJoules else { return "–" }
        return String(format: "%.3g J", total) + (energy.impact.map { " (\($0.level.rawValue))" } ?? "")
    }

    static func score(_ value: Double?) -> String {
        guard let value else { return "–" }
        let band = ScoreBand(score: value)
        let mark = band == .pass ? "🟢" : band == .average ? "🟠" : "🔴"
        return "\(mark) \(DisplayFormat.score(value))"
    }

    /// Keeps workload-provided text from breaking the table or acting as HTML or Markdown.
    static func cell(_ text: String) -> String { TextSanitizer.markdown(text) }

    /// Text for inside a code span: one line, no backticks or pipes to end it early.
    static func code(_ text: String) -> String {
        TextSanitizer.visible(text).replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|")
    }
}
