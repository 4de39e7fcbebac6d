import Foundation
import FrugalCore

/// Renders `summary.md`: a summary fit for a pull-request comment, at most
/// ``characterLimit`` characters for any suite.
///
/// What a reviewer must act on comes first and in full: regressions against the baseline
/// (worst first), failing assertions, every failing audit of every workload, and every warning
/// (an audit in the middle band, 0.5–0.9: neither clearly good nor clearly bad). Then the
/// scores, and passing and average audits collapsed: counts per category, and `<details>`
/// tables while they fit. What does not fit is named in one line that points at the HTML.
public enum MarkdownSummaryRenderer {
    /// A GitHub pull-request comment holds 65,536 characters; the rest is headroom for a CI
    /// job's own lines around the summary.
    public static let characterLimit = 60_000

    public static func render(_ report: Report, limit: Int = characterLimit) -> String {
        var document = MarkdownDocument()
        var header = ["# Frugal summary", ""]
        header.append("\(cell(report.tool.name)) \(cell(report.tool.version)) · \(cell(report.generatedAt)) · \(cell(report.environments.map(\.hostname).joined(separator: ", ")))")
        header.append("")
        header.append("The full report, with every audit's evidence and the timelines, is `report.html` beside this file.")
        header.append("")
        document.add(.essential, header)
        if let comparison = report.comparison { addComparison(comparison, to: &document) }
        if let assertions = report.assertions { document.add(.essential, assertionLines(assertions)) }
        addScores(report, to: &document)
        addTLSFindings(report, to: &document)
        addAudits(report, to: &document)
        addPlatformWakeups(report, to: &document)
        document.add(.essential, ["Scores are 0–100: pass ≥ 90, average 50–89, fail < 50."])
        return document.render(limit: limit)
    }

    static func addScores(_ report: Report, to document: inout MarkdownDocument) {
        var lines = ["## Scores", ""]
        lines.append(overview(report.results))
        lines.append("")
        lines.append("| workload | scenario | runs | outcome | overall | energy | failing audits | warnings |")
        lines.append("|---|---|---|---|---|---|---|---|")
        for result in report.results {
            let outcomes = result.outcomes.sorted { $0.key < $1.key }.map { "\(cell($0.key)) ×\($0.value)" }.joined(separator: ", ")
            let failing = failingAudits(result).count
            let warnings = warningAudits(result).count
            lines.append("| \(cell(result.workload)) | \(cell(result.scenario)) | \(result.repetitions) | \(outcomes) | \(score(result.score)) | \(energy(result.energy)) | \(failing == 0 ? "none" : "\(failing)") | \(warnings == 0 ? "none" : "\(warnings)") |")
        }
        lines.append("")
        document.add(.important, lines, omitted: "The scores table (\(report.results.count) rows) did not fit; see `report.html`.")
    }

    /// One line over the whole suite: how many audit verdicts fall in each band.
    static func overview(_ results: [WorkloadResult]) -> String {
        var failing = 0, average = 0, passing = 0, unscored = 0
        for audit in results.flatMap(\.audits.values) {
            guard let score = audit.score else { unscored += 1; continue }
            switch ScoreBand(score: score) {
            case .pass: passing += 1
            case .average: average += 1
            case .fail: failing += 1
            }
        }
        return "\(results.count) workload·scenario pairs: \(failing) failing audit\(failing == 1 ? "" : "s"), \(average) warning\(average == 1 ? "" : "s") (average, 50–89), \(passing) passing, \(unscored) not applicable or unavailable."
    }

    /// Failing audits of each workload in full; the others counted per category, and listed in
    /// a collapsed table when there is room.
    static func addAudits(_ report: Report, to document: inout MarkdownDocument) {
        document.add(.essential, ["## Audits", ""])
        for result in report.results {
            var lines = ["### \(cell(result.workload)) · \(cell(result.scenario))", ""]
            let failing = failingAudits(result)
            let warnings = warningAudits(result)
            if failing.isEmpty && warnings.isEmpty {
                lines.append("No failing audit and no warning.")
            } else {
                // A score between 0.5 and 0.9 is on neither side of the line: a reader must see it,
                // or an app that flips between bands across runs reads as "failing audits: none".
                lines.append("| audit | verdict | score | value |")
                lines.append("|---|---|---|---|")
                for audit in failing { lines.append(row(audit, verdict: "failing")) }
                for audit in warnings { lines.append(row(audit, verdict: "warning")) }
            }
            lines += unmatchedRequests(report, result)
            lines += mainThreadJudged(report, result)
            let rest = result.audits.values.filter { ($0.score ?? 1) >= 0.9 }
                .sorted { ($0.score ?? 2, $0.id) < ($1.score ?? 2, $1.id) }
            let scored = rest.filter { $0.score != nil }
            lines.append("")
            if !rest.isEmpty {
                lines.append("Passing: \(scored.isEmpty ? "none" : categoryCounts(scored)); \(rest.count - scored.count) not applicable or unavailable.")
                lines.append("")
            }
            document.add(.essential, lines)
            guard !rest.isEmpty else { continue }
            var details = ["<details><summary>\(rest.count) other audits of \(cell(result.workload))</summary>", ""]
            details.append("| audit | score | value |")
            details.append("|---|---|---|")
            for audit in rest { details.append(row(audit)) }
            details += ["", "</details>", ""]
            document.add(.optional, details, omitted: nil)
        }
    }

    /// The requests the app made that the run's server (fixtures, HAR) had no answer for: findings,
    /// each once over the repetitions, at most 10.
    static func unmatchedRequests(_ report: Report, _ result: WorkloadResult) -> [String] {
        var seen: Set<String> = []
        let unmatched = report.runs.filter { $0.workload == result.workload && $0.scenario == result.scenario }
            .flatMap { $0.server?.unmatched ?? [] }.filter { seen.insert($0).inserted }
        var lines: [String] = []
        if !unmatched.isEmpty {
            lines += ["", "Requests the run's server had no answer for (404):"]
            lines += unmatched.prefix(10).map { "- \(cell($0))" }
            if unmatched.count > 10 { lines.append("- and \(unmatched.count - 10) more (report.json: runs[].server.unmatched)") }
        }
        var seenUnseen: Set<String> = []
        let unseen = report.runs.filter { $0.workload == result.workload && $0.scenario == result.scenario }
            .flatMap { $0.server?.unseen ?? [] }.filter { seenUnseen.insert($0).inserted }
        if !unseen.isEmpty {
            lines += ["", "Connections past the proxy (unseen traffic, not shaped or counted): \(unseen.prefix(10).map(cell).joined(separator: ", "))"]
        }
        return lines
    }

    /// Every run whose client refused the run's CA (its own trust store, or a pinned
    /// certificate): those requests were neither served nor seen, so its network numbers miss them.
    static func addTLSFindings(_ report: Report, to document: inout MarkdownDocument) {
        let runs = report.runs.filter { !($0.tls?.findings.isEmpty ?? true) }
        guard !runs.isEmpty else { return }
        var lines = ["## HTTPS findings", ""]
        for run in runs {
            for finding in run.tls?.findings ?? [] {
                lines.append("- \(cell(run.workload)) · \(cell(run.scenario)), run \(run.repetition): \(cell(finding))")
            }
        }
        lines.append("")
        document.add(.essential, lines)
    }

    static func failingAudits(_ result: WorkloadResult) -> [AggregatedAudit] {
        result.audits.values.filter { ($0.score ?? 1) < 0.5 }.sorted { ($0.score ?? 0, $0.id) < ($1.score ?? 0, $1.id) }
    }

    /// Audits in the middle band (0.5 ≤ score < 0.9), lowest first.
    static func warningAudits(_ result: WorkloadResult) -> [AggregatedAudit] {
        result.audits.values.filter { guard let score = $0.score else { return false }; return ScoreBand(score: score) == .average }
            .sorted { ($0.score ?? 0, $0.id) < ($1.score ?? 0, $1.id) }
    }

    static func row(_ audit: AggregatedAudit, verdict: String) -> String {
        "| `\(code(audit.id))` | \(verdict) | \(score(audit.score)) | \(cell(audit.score == nil ? (audit.explanation ?? audit.displayValue) : audit.displayValue)) |"
    }

    static func row(_ audit: AggregatedAudit) -> String {
        "| `\(code(audit.id))` | \(score(audit.score)) | \(cell(audit.score == nil ? (audit.explanation ?? audit.displayValue) : audit.displayValue)) |"
    }

    /// `power 2, disk 5`: audits by category, in the catalogue's order.
    static func categoryCounts(_ audits: [AggregatedAudit]) -> String {
        var counts: [String: Int] = [:]
        for audit in audits {
            let category = RuleCatalogue.all.first { $0.id == audit.id }?.category.rawValue ?? "other"
            counts[category, default: 0] += 1
        }
        let order = RuleCategory.allCases.map(\.rawValue) + ["other"]
        return order.compactMap { name in counts[name].map { "\(name) \($0)" } }.joined(separator: ", ")
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

    /// Idle wakeups left out of `power.avoid-polling` as the platform's, per workload (only when
    /// some were): a reader of the verdict sees what was not charged, and why.
    static func addPlatformWakeups(_ report: Report, to document: inout MarkdownDocument) {
        var byWorkload: [String: (platform: Int, app: Int, runs: Int)] = [:]
        for run in report.runs {
            guard let threads = run.threads, threads.platformIdleWakeups > 0 else { continue }
            let key = "\(run.workload) · \(run.scenario)"
            let sum = byWorkload[key] ?? (0, 0, 0)
            byWorkload[key] = (sum.platform + threads.platformIdleWakeups, sum.app + threads.appIdleWakeups, sum.runs + 1)
        }
        guard !byWorkload.isEmpty else { return }
        var lines = ["## Idle wakeups not charged to the app", "", "Linux's platform, not the app: \(cell(RunAnalysis.platformReason)). Per-thread tables are in `report.html`.", "",
                     "| workload | runs | idle wakeups: platform | idle wakeups: app |", "|---|---|---|---|"]
        for (key, sum) in byWorkload.sorted(by: { $0.key < $1.key }) {
            lines.append("| \(cell(key)) | \(sum.runs) | \(sum.platform) | \(sum.app) |")
        }
        lines.append("")
        document.add(.optional, lines)
    }

    /// Text for inside a code span: one line, no backticks or pipes to end it early.
    static func code(_ text: String) -> String {
        TextSanitizer.visible(text).replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|")
    }
}
