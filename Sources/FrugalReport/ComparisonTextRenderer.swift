import FrugalCore

/// The plain-text listing `frugal compare` prints: regressions worst first, then a count of
/// what did not change, and a warning when repetitions were insufficient. Counts only what was
/// judged: values with too few repetitions are counted apart, never as compared.
public enum ComparisonTextRenderer {
    /// Why the comparison judged nothing, as one line; nil when it judged something.
    public static func nothingCompared(_ comparison: ReportComparison) -> String? {
        // A regression was judged, so something was compared.
        guard comparison.regressions.isEmpty else { return nil }
        let entries = comparison.results.flatMap { $0.audits + $0.metrics }
        if comparison.results.isEmpty {
            return "nothing compared: the reports share no workload · scenario (\(comparison.unmatched.count) unmatched, e.g. \(comparison.unmatched.prefix(2).joined(separator: "; ")))"
        }
        if entries.isEmpty {
            return "nothing compared: the \(comparison.results.count) shared workload · scenario pairs have no measured value in common"
        }
        if !entries.contains(where: { $0.verdict != .insufficientData }) {
            let base = comparison.results.map(\.baseRepetitions).min() ?? 0, head = comparison.results.map(\.headRepetitions).min() ?? 0
            return "nothing compared: every value has too few repetitions (baseline \(base), head \(head); \(ComparisonPolicy(alpha: comparison.alpha, minimumRepetitions: comparison.minimumRepetitions).repetitionRule))"
        }
        return nil
    }

    public static func render(_ comparison: ReportComparison) -> String {
        var lines: [String] = []
        let entries = comparison.results.flatMap { $0.audits + $0.metrics }
        let judged = entries.filter { $0.verdict != .insufficientData }.count
        if let nothing = nothingCompared(comparison) { return nothing + "\n" }
        if let shortage = comparison.insufficientRepetitions {
            lines.append("insufficient repetitions: values with too few runs are not judged (\(shortage))")
        }
        if comparison.regressions.isEmpty {
            let skipped = entries.count - judged
            lines.append("no significant regression (\(judged) value\(judged == 1 ? "" : "s") compared over \(comparison.results.count) workload·scenario pairs"
                         + (skipped > 0 ? "; \(skipped) not compared: too few repetitions)" : ")"))
        } else {
            lines.append("\(comparison.regressions.count) significant regression\(comparison.regressions.count == 1 ? "" : "s"), worst first:")
            for entry in comparison.regressions {
                lines.append("  REGRESSED \(entry.kind.rawValue) \(entry.name) · \(entry.workload) · \(entry.scenario): "
                             + "\(number(entry.base?.median)) → \(number(entry.head?.median)) \(entry.unit); \(entry.reason)\(channel(entry))")
            }
        }
        let inconclusive = comparison.inconclusive ?? []
        if !inconclusive.isEmpty {
            lines.append("\(inconclusive.count) inconclusive (too noisy to tell at the threshold; not a failure):")
            for entry in inconclusive {
                lines.append("  INCONCLUSIVE \(entry.kind.rawValue) \(entry.name) · \(entry.workload) · \(entry.scenario): "
                             + "\(number(entry.base?.median)) → \(number(entry.head?.median)) \(entry.unit); \(entry.reason)\(channel(entry))")
            }
        }
        if let calibration = comparison.calibration {
            let widened = entries.filter { $0.noise != nil }.count
            lines.append("calibration: \(calibration); \(widened) threshold\(widened == 1 ? "" : "s") widened to 3 × the measured noise")
        }
        for entry in entries where entry.verdict == .regressed && !entry.minimumEffect.gating {
            lines.append("  changed (not gating) \(entry.name) · \(entry.workload): \(entry.reason)")
        }
        for entry in entries where entry.verdict == .improved {
            lines.append("  improved \(entry.kind.rawValue) \(entry.name) · \(entry.workload) · \(entry.scenario): \(entry.reason)")
        }
        for missing in comparison.unmatched { lines.append("  unmatched: \(missing)") }
        let gates = entries.filter { $0.minimumEffect.gating && $0.verdict != .insufficientData && $0.channel != nil }
        if !gates.isEmpty {
            let exact = gates.filter { $0.channel == .count }.count
            lines.append("gates: \(exact) by exact count, \(gates.count - exact) by statistics")
        }
        // Names come from reports anyone can write: each line stays one line, with no terminal escape.
        return lines.map(TextSanitizer.visible).joined(separator: "\n") + "\n"
    }

    static func number(_ value: Double?) -> String { value.map(DisplayFormat.number) ?? "–" }

    /// Which channel decided a gate: an exact count or the statistics.
    static func channel(_ entry: ComparisonEntry) -> String {
        entry.channel.map { " [gate: \($0 == .count ? "exact count" : "statistics")]" } ?? ""
    }
}
