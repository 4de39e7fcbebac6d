import Foundation
import FrugalCore

/// Renders the report as one self-contained HTML page: no scripts, no external assets, readable
/// in any browser and in CI artifact viewers, at a desktop's width and at a phone's.
///
/// The page opens with what to fix first (the failing audits across the report, largest gain
/// first: `FixPriority`), then the workloads worst first, the comparison with the baseline
/// (regressions first) and the assertions; each workload's section lists its own fixes, its
/// passing audits collapsed by category, its energy, and its runs, each with one timeline and
/// its metrics (the unavailable ones grouped by reason, the full table behind a `<details>`).
/// Numbers are scaled for reading (`HumanUnits`), the exact value in the tooltip and the JSON.
public enum HTMLReportRenderer {
    /// How many fixes the top of the page lists; the rest are in their workloads' sections.
    static let topFixes = 8

    public static func render(_ report: Report, history: ReportHistory? = nil) -> String {
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Frugal report</title>
        <style>\(style)</style></head><body>
        <header><h1>Frugal report</h1>
        <p class="meta">\(e(report.tool.name)) \(e(report.tool.version)) · \(e(report.generatedAt)) · \(e(report.environment.hostname)) · Linux \(e(report.environment.kernel)) · \(report.environment.cores) cores\(report.environment.virtualMachine == true ? " · VM" : "")\(report.environment.papiVersion.map { " · PAPI \(e($0))" } ?? "")</p>
        </header>
        """
        var runsByResult: [ResultKey: [RunReport]] = [:]
        for run in report.runs { runsByResult[key(run.workload, run.scenario), default: []].append(run) }
        let fixes = report.results.flatMap { FixPriority.items(for: $0, runs: runsByResult[key($0.workload, $0.scenario)] ?? []) }
        // Each workload's own fixes and comparison, found once rather than by a search of all of
        // them per workload (a suite of 1,000 programs: a million comparisons).
        let grouped = Grouped(fixes: fixes, comparison: report.comparison)
        html += fixFirstSection(FixPriority.sorted(fixes), report: report)
        if let comparison = report.comparison { html += comparisonSection(comparison) }
        if let assertions = report.assertions { html += assertionSection(assertions) }
        html += summaryTable(report, grouped: grouped)
        for result in report.results {
            let context = ResultContext(result: result, comparison: grouped.comparison(result.workload, result.scenario), history: history)
            html += resultSection(context, runs: runsByResult[key(result.workload, result.scenario)] ?? [],
                                  fixes: grouped.fixes(result.workload, result.scenario))
        }
        html += tracesSection(report)
        html += ruleReference(report)
        html += environmentSection(report.environment)
        html += "<footer>Scores: pass ≥ 90, average 50–89, fail &lt; 50 (log-normal curves, as Lighthouse). Numbers are rounded for reading; hover one for its exact value, which report.json also holds. Every number names its source; “unavailable” means not measured here, never zero.</footer>"
        html += "</body></html>\n"
        return html
    }

    static func key(_ workload: String, _ scenario: String) -> ResultKey { ResultKey(workload: workload, scenario: scenario) }

    /// Fixes by workload and scenario, in their order; the first comparison result of each.
    struct Grouped {
        private var fixesByKey: [ResultKey: [FixPriority]] = [:]
        private var comparisonByKey: [ResultKey: WorkloadComparison] = [:]

        init(fixes: [FixPriority], comparison: ReportComparison?) {
            for fix in fixes { fixesByKey[key(fix.workload, fix.scenario), default: []].append(fix) }
            for result in comparison?.results ?? [] where comparisonByKey[key(result.workload, result.scenario)] == nil {
                comparisonByKey[key(result.workload, result.scenario)] = result
            }
        }

        func fixes(_ workload: String, _ scenario: String) -> [FixPriority] { fixesByKey[key(workload, scenario)] ?? [] }
        func comparison(_ workload: String, _ scenario: String) -> WorkloadComparison? { comparisonByKey[key(workload, scenario)] }
    }

    static func e(_ text: String) -> String { HTMLEscaping.escape(text) }

    /// A number scaled for reading, with its exact value as the tooltip when rounding changed it.
    static func number(_ value: Double?, unit: String) -> String {
        guard let value else { return "–" }
        let human = HumanUnits.format(value, unit: unit)
        let exact = HumanUnits.exact(value, unit: unit)
        return human == exact ? e(human) : "<span title=\"\(e(exact))\">\(e(human))</span>"
    }

    /// Seconds on the run's clock (`at 12.3 s`).
    static func time(_ seconds: Double) -> String { DisplayFormat.number(seconds) + " s" }

    static func badge(_ score: Double?) -> String {
        guard let score else { return "<span class=\"badge na\" title=\"not scored\">–</span>" }
        let band = ScoreBand(score: score)
        return "<span class=\"badge \(band.rawValue)\">\(DisplayFormat.score(score))</span>"
    }

    static func anchor(_ result: WorkloadResult) -> String { anchor(result.workload, result.scenario) }

    static func anchor(_ workload: String, _ scenario: String) -> String {
        "w-" + (workload + "-" + scenario).map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
    }

    static func curveText(_ curve: ScoringCurve, unit: String) -> String {
        switch curve {
        case .logNormal(let good, let poor): return "90 at \(HumanUnits.format(good, unit: unit)), 50 at \(HumanUnits.format(poor, unit: unit)), lower is better"
        case .binary(let maxPassing): return "pass at \(HumanUnits.format(maxPassing, unit: unit)) or less, else fail"
        }
    }

    static func environmentSection(_ environment: EnvironmentInfo) -> String {
        var html = "<section><h2>Environment</h2><p>\(environment.cores) cores, \(number(Double(environment.memoryBytes), unit: "bytes")) of memory.</p>"
        for note in environment.notes { html += "<p class=\"legend\">\(e(note))</p>" }
        let unavailable = environment.counters.filter { !$0.available }.count
        html += "<details><summary>Counters: \(environment.counters.count - unavailable) available, \(unavailable) not</summary><div class=\"scroll\"><table class=\"metrics\"><thead><tr><th>counter</th><th>source</th><th>available</th><th>reason</th></tr></thead><tbody>"
        for counter in environment.counters {
            html += "<tr><td><code>\(e(counter.name))</code></td><td>\(e(counter.source))</td><td>\(counter.available ? "yes" : "<b>no</b>")</td><td>\(e(counter.reason ?? ""))</td></tr>"
        }
        return html + "</tbody></table></div></details></section>"
    }
}
