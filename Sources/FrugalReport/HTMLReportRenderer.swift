import Foundation
import FrugalCore

/// Renders the report as one self-contained HTML page: no scripts, no external assets, readable
/// in any browser and in CI artifact viewers. Audits open (`<details>`) to the guide's quote,
/// the evidence and the metric's source. With a baseline, scores and audits carry comparison
/// columns; with a history, each audit draws its trend over recent runs.
public enum HTMLReportRenderer {
    public static func render(_ report: Report, history: ReportHistory? = nil) -> String {
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Frugal report</title>
        <style>\(style)</style></head><body>
        <header><h1>Frugal report</h1>
        <p class="meta">\(e(report.tool.name)) \(e(report.tool.version)) · \(e(report.generatedAt)) · \(e(report.environment.hostname)) · Linux \(e(report.environment.kernel)) · \(report.environment.cores) cores\(report.environment.virtualMachine == true ? " · VM" : "")\(report.environment.papiVersion.map { " · PAPI \(e($0))" } ?? "")</p>
        </header>
        """
        html += summaryTable(report)
        if let comparison = report.comparison { html += comparisonSection(comparison) }
        if let assertions = report.assertions { html += assertionSection(assertions) }
        var runsByResult: [String: [RunReport]] = [:]
        for run in report.runs { runsByResult[run.workload + "\u{0}" + run.scenario, default: []].append(run) }
        for result in report.results {
            let context = ResultContext(result: result, comparison: report.comparison?.results.first { $0.workload == result.workload && $0.scenario == result.scenario },
                                        history: history)
            html += resultSection(context, runs: runsByResult[result.workload + "\u{0}" + result.scenario] ?? [])
        }
        html += environmentSection(report.environment)
        html += "<footer>Scores: pass ≥ 0.9, average 0.5–0.9, fail &lt; 0.5 (log-normal curves, as Lighthouse). Every number names its source; “unavailable” means not measured here, never zero.</footer>"
        html += "</body></html>\n"
        return html
    }

    static func e(_ text: String) -> String { HTMLEscaping.escape(text) }

    static func badge(_ score: Double?) -> String {
        guard let score else { return "<span class=\"badge na\">–</span>" }
        let band = ScoreBand(score: score)
        return "<span class=\"badge \(band.rawValue)\">\(DisplayFormat.score(score))</span>"
    }

    static func summaryTable(_ report: Report) -> String {
        let categories = RuleCategory.allCases.filter { category in report.results.contains { $0.categories[category.rawValue] != nil } }
        let hasBaseline = report.comparison != nil
        var html = "<section><h2>Summary</h2><table class=\"summary\"><thead><tr><th>workload</th><th>scenario</th><th>runs</th><th>outcome</th>\(hasBaseline ? "<th>baseline</th>" : "")<th>overall</th>"
        for category in categories { html += "<th>\(e(category.title))</th>" }
        html += "<th>energy</th></tr></thead><tbody>"
        for result in report.results {
            let outcomes = result.outcomes.sorted { $0.key < $1.key }.map { "\(e($0.key)) ×\($0.value)" }.joined(separator: ", ")
            html += "<tr><td><a href=\"#\(anchor(result))\">\(e(result.workload))</a></td><td>\(e(result.scenario))</td><td>\(result.repetitions)</td><td>\(outcomes)</td>"
            if hasBaseline {
                let base = report.comparison?.results.first { $0.workload == result.workload && $0.scenario == result.scenario }
                html += "<td>\(base == nil ? "not in baseline" : badge(base?.baseScore))</td>"
            }
            html += "<td>\(badge(result.score))</td>"
            for category in categories { html += "<td>\(badge(result.categories[category.rawValue]?.score))</td>" }
            html += "<td>\(energyCell(result.energy))</td></tr>"
        }
        return html + "</tbody></table></section>"
    }

    static func anchor(_ result: WorkloadResult) -> String {
        "w-" + (result.workload + "-" + result.scenario).map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
    }

    static func curveText(_ curve: ScoringCurve, unit: String) -> String {
        switch curve {
        case .logNormal(let good, let poor): return "0.9 at \(DisplayFormat.number(good)) \(unit), 0.5 at \(DisplayFormat.number(poor)) \(unit), lower is better"
        case .binary(let maxPassing): return "pass at \(DisplayFormat.number(maxPassing)) \(unit) or less, else fail"
        }
    }

    static func runDetails(_ run: RunReport) -> String {
        // The first run's timeline is open: the page shows what happened without a click.
        var html = "<details class=\"run\"\(run.repetition == 1 ? " open" : "")><summary>Run \(run.repetition): \(e(run.outcome.rawValue))\(run.outcomeDetail.map { " — " + e($0) } ?? "") · \(DisplayFormat.number(run.durationSeconds)) s</summary>"
        html += TimelineSVG.render(run.timeline)
        html += "<p class=\"legend\"><span style=\"color:#4caf50\">■</span> active <span style=\"color:#ffc107\">■</span> inactive <span style=\"color:#2196f3\">■</span> background <span style=\"color:#5c6bc0\">■</span> handler <span style=\"color:#fb8c00\">■</span> &gt; 50 ms <span style=\"color:#e53935\">■</span> hang (≥ 250 ms) <span style=\"color:#8e24aa\">■</span> wakeups"
            + (run.timeline.disk == nil ? "" : " · disk: <span style=\"color:#ef6c00\">■</span> replace <span style=\"color:#00897b\">■</span> in-place write <span style=\"color:#3949ab\">■</span> append <span style=\"color:#c62828\">■</span> delete, a dark cap = fsync")
            + "</p>"
        html += diskDetails(run)
        html += "<table class=\"metrics\"><thead><tr><th>metric</th><th>value</th><th>unit</th><th>source</th></tr></thead><tbody>"
        for (name, metric) in run.metrics.sorted(by: { $0.key < $1.key }) {
            let value = metric.value.map { DisplayFormat.number($0) } ?? "<span class=\"unavailable\">unavailable: \(e(metric.unavailable ?? ""))</span>"
            html += "<tr><td><code>\(e(name))</code></td><td>\(value)</td><td>\(e(metric.unit))</td><td><code>\(e(metric.source))</code></td></tr>"
        }
        return html + "</tbody></table></details>"
    }

    static func environmentSection(_ environment: EnvironmentInfo) -> String {
        var html = "<section><h2>Environment</h2><table class=\"metrics\"><thead><tr><th>counter</th><th>source</th><th>available</th><th>reason</th></tr></thead><tbody>"
        for counter in environment.counters {
            html += "<tr><td><code>\(e(counter.name))</code></td><td>\(e(counter.source))</td><td>\(counter.available ? "yes" : "<b>no</b>")</td><td>\(e(counter.reason ?? ""))</td></tr>"
        }
        html += "</tbody></table><ul>"
        for note in environment.notes { html += "<li>\(e(note))</li>" }
        return html + "</ul></section>"
    }

    static let style = """
    body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:1000px;padding:16px;color:#212121}
    h1{margin:0}h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}h2 small{color:#757575;font-weight:normal}
    .meta,footer,.legend{color:#616161;font-size:12px}table{border-collapse:collapse;width:100%;margin:8px 0}
    th,td{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top}th{background:#fafafa}
    .badge{display:inline-block;min-width:2.2em;text-align:center;border-radius:1em;padding:0 6px;font-weight:bold;color:#fff}
    .regressed{color:#c62828;font-weight:bold}.improved{color:#0c7d3c}.band{margin:4px 0 0;color:#616161;font-size:12px;text-transform:uppercase}
    svg.trend{vertical-align:middle;margin-left:6px}.energy td,.energy th{font-size:13px}
    .badge.pass{background:#0c7d3c}.badge.average{background:#c77700}.badge.fail{background:#c62828}.badge.na{background:#9e9e9e}
    details{margin:4px 0}details.audit>summary,details.run>summary{cursor:pointer;padding:4px 0}
    .body{padding:4px 12px 8px 24px;border-left:3px solid #eee}blockquote{margin:6px 0;padding:6px 10px;background:#f5f5f5;font-style:italic}
    blockquote cite{display:block;font-style:normal;color:#757575;font-size:12px;margin-top:4px}
    code{font-size:12px;background:#f5f5f5;padding:0 3px;border-radius:3px}.unavailable{color:#c62828}
    svg.timeline{border:1px solid #eee;margin:6px 0;background:#fff}svg .lane{font-size:12px;fill:#424242}svg .tick{font-size:10px;fill:#757575}
    """
}
