import FrugalCore

/// The plain-text listing `frugal compare` prints: regressions worst first, then a count of
/// what did not change, and a warning when repetitions were insufficient.
public enum ComparisonTextRenderer {
    public static func render(_ comparison: ReportComparison) -> String {
        var lines: [String] = []
        let entries = comparison.results.flatMap { $0.audits + $0.metrics }
        if let shortage = comparison.insufficientRepetitions {
            lines.append("insufficient repetitions: values with too few runs are not judged (\(shortage))")
        }
        if comparison.regressions.isEmpty {
            lines.append("no significant regression (\(entries.count) values compared over \(comparison.results.count) workload·scenario pairs)")
        } else {
            lines.append("\(comparison.regressions.count) significant regression\(comparison.regressions.count == 1 ? "" : "s"), worst first:")
            for entry in comparison.regressions {
                lines.append("  REGRESSED \(entry.kind.rawValue) \(entry.name) · \(entry.workload) · \(entry.scenario): "
                             + "\(number(entry.base?.median)) → \(number(entry.head?.median)) \(entry.unit); \(entry.reason)")
            }
        }
        for entry in entries where entry.verdict == .regressed && !entry.minimumEffect.gating {
            lines.append("  changed (not gating) \(entry.name) · \(entry.workload): \(entry.reason)")
        }
        for entry in entries where entry.verdict == .improved {
            lines.append("  improved \(entry.kind.rawValue) \(entry.name) · \(entry.workload) · \(entry.scenario): \(entry.reason)")
        }
        for missing in comparison.unmatched { lines.append("  unmatched: \(missing)") }
        // Names come from reports anyone can write: each line stays one line, with no terminal escape.
        return lines.map(TextSanitizer.visible).joined(separator: "\n") + "\n"
    }

    static func number(_ value: Double?) -> String { value.map(DisplayFormat.number) ?? "–" }
}
