import FrugalCore

extension MarkdownSummaryRenderer {
    static func addComparison(_ comparison: ReportComparison, to document: inout MarkdownDocument) {
        var lines = ["## Against the baseline", ""]
        lines.append("Baseline `\(code(comparison.baseline))` (\(cell(comparison.baselineGeneratedAt))). A regression is a change that is significant (Mann–Whitney U, α = \(DisplayFormat.number(comparison.alpha)); the bootstrap interval of the median change excludes 0) and at least the value's minimum effect.")
        lines.append("")
        if let warning = comparison.machineWarning {
            lines.append("⚠️ **Another machine:** \(cell(warning)).")
            lines.append("")
        }
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
        if let inconclusive = comparison.inconclusive, !inconclusive.isEmpty {
            lines.append("")
            lines.append("⚠️ **\(inconclusive.count) inconclusive**: the Hodges–Lehmann interval of the shift contains the practical threshold (too noisy to tell; not a failure):")
            lines.append("")
            lines += changeTable(inconclusive)
        }
        lines.append("")
        for missing in comparison.unmatched { lines.append("- unmatched: \(cell(missing))") }
        if !comparison.unmatched.isEmpty { lines.append("") }
        document.add(.essential, lines)
        let improvements = comparison.results.flatMap { $0.audits + $0.metrics }.filter { $0.verdict == .improved }
        if !improvements.isEmpty {
            var details = ["<details><summary>\(improvements.count) significant improvement\(improvements.count == 1 ? "" : "s")</summary>", ""]
            details += changeTable(improvements)
            details += ["", "</details>", ""]
            document.add(.optional, details, omitted: "\(improvements.count) significant improvement\(improvements.count == 1 ? "" : "s"): see `report.html`.")
        }
        var scores = ["| workload | scenario | base score | head score |", "|---|---|---|---|"]
        for result in comparison.results {
            scores.append("| \(cell(result.workload)) | \(cell(result.scenario)) | \(score(result.baseScore)) | \(score(result.headScore)) |")
        }
        scores.append("")
        document.add(.important, scores, omitted: "Base and head scores of \(comparison.results.count) workloads: see `report.html`.")
    }

    static func changeTable(_ entries: [ComparisonEntry]) -> [String] {
        var lines = ["| workload | audit or metric | base (median) | head (median) | change | p |", "|---|---|---|---|---|---|"]
        for entry in entries {
            lines.append("| \(cell(entry.workload)) · \(cell(entry.scenario)) | `\(code(entry.name))` | \(value(entry.base?.median, entry.unit)) | \(value(entry.head?.median, entry.unit)) | \(change(entry)) | \(entry.pValue.map { String(format: "%.3g", $0) } ?? "–") |")
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
