import FrugalCore

extension MarkdownSummaryRenderer {
    static func comparisonLines(_ comparison: ReportComparison) -> [String] {
        var lines = ["## Against the baseline", ""]
        lines.append("Baseline `\(cell(comparison.baseline))` (\(cell(comparison.baselineGeneratedAt))). A regression is a change that is significant (Mann–Whitney U, α = \(DisplayFormat.number(comparison.alpha)); the bootstrap interval of the median change excludes 0) and at least the value's minimum effect.")
        lines.append("")
        if let shortage = comparison.insufficientRepetitions {
            lines.append("⚠️ **Insufficient repetitions** for some values — they are not judged: \(cell(shortage))")
            lines.append("")
        }
        if let nothing = ComparisonTextRenderer.nothingCompared(comparison) {
            lines.append("⚠️ **\(cell(nothing))**")
        } else if comparison.regressions.isEmpty {
            lines.append("✅ No significant regression.")
        } else {
            lines.append("❌ **\(comparison.regressions.count) regression\(comparison.regressions.count == 1 ? "" : "s")**, worst first:")
            lines.append("")
            lines += changeTable(comparison.regressions)
        }
        lines.append("")
        let improvements = comparison.results.flatMap { $0.audits + $0.metrics }.filter { $0.verdict == .improved }
        if !improvements.isEmpty {
            lines.append("<details><summary>\(improvements.count) significant improvement\(improvements.count == 1 ? "" : "s")</summary>")
            lines.append("")
            lines += changeTable(improvements)
            lines.append("")
            lines.append("</details>")
            lines.append("")
        }
        lines.append("| workload | scenario | base score | head score |")
        lines.append("|---|---|---|---|")
        for result in comparison.results {
            lines.append("| \(cell(result.workload)) | \(cell(result.scenario)) | \(score(result.baseScore)) | \(score(result.headScore)) |")
        }
        for missing in comparison.unmatched { lines.append("- unmatched: \(cell(missing))") }
        lines.append("")
        return lines
    }

    static func changeTable(_ entries: [ComparisonEntry]) -> [String] {
        var lines = ["| workload | audit or metric | base (median) | head (median) | change | p |", "|---|---|---|---|---|---|"]
        for entry in entries {
            lines.append("| \(cell(entry.workload)) · \(cell(entry.scenario)) | `\(entry.name)` | \(value(entry.base?.median, entry.unit)) | \(value(entry.head?.median, entry.unit)) | \(change(entry)) | \(entry.pValue.map { String(format: "%.3g", $0) } ?? "–") |")
        }
        return lines
    }

    static func change(_ entry: ComparisonEntry) -> String {
        guard let absolute = entry.absoluteChange else { return "–" }
        let sign = absolute >= 0 ? "+" : ""
        let relative = entry.relativeChange.map { String(format: " (%+.1f%%)", $0 * 100) } ?? ""
        return "\(sign)\(DisplayFormat.number(absolute))\(relative)"
    }

    static func value(_ number: Double?, _ unit: String) -> String {
        number.map { "\(DisplayFormat.number($0)) \(cell(unit))" } ?? "–"
    }

    static func assertionLines(_ outcome: AssertionOutcome) -> [String] {
        var lines = ["## Assertions\(outcome.preset.map { " (\($0))" } ?? "")", ""]
        let failing = outcome.results.filter { !$0.passed }
        if failing.isEmpty {
            lines.append("✅ All \(outcome.results.count) assertions pass.")
        } else {
            lines.append("| level | workload | assertion |")
            lines.append("|---|---|---|")
            for check in failing {
                lines.append("| \(check.level == .error ? "❌ error" : "⚠️ warn") | \(cell(check.workload)) · \(cell(check.scenario)) | \(cell(check.message)) |")
            }
        }
        lines.append("")
        return lines
    }
}
