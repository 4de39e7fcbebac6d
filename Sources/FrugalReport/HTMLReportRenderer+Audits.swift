import FrugalCore

extension HTMLReportRenderer {
    /// What a workload result's section draws from: the result, its comparison, the history.
    struct ResultContext {
        var result: WorkloadResult
        var comparison: WorkloadComparison?
        var history: ReportHistory?
    }

    /// The metric each audit scores, so an audit can show that metric's source.
    static let auditMetric: [String: String] = [
        "power.avoid-polling": MetricName.cpuIdleWakeupsPerSecond,
        "main.no-long-blocks": MetricName.mainThreadLongestResponseMs,
        "lifecycle.launch-time": MetricName.lifecycleLaunchMs,
    ]

    static func resultSection(_ context: ResultContext, runs: [RunReport], fixes: [FixPriority]) -> String {
        let result = context.result
        let id = anchor(result)
        var html = "<section id=\"\(id)\"><h2>\(badge(result.score)) \(e(result.workload)) <small>· \(e(result.scenario))</small></h2>"
        let scored = result.audits.values.filter { $0.score != nil }
        if result.score == nil {
            html += "<p class=\"meta\">Not scored: none of its \(result.audits.count) audits applies or could be measured (below, with the reasons).</p>"
        } else {
            let categories = RuleCategory.allCases.compactMap { category in
                result.categories[category.rawValue].map { "\(e(category.title)) \(badge($0.score))" }
            }
            html += "<p class=\"cats\">\(categories.joined(separator: " "))</p>"
        }
        if !fixes.isEmpty {
            html += "<h3>To fix <small>· largest gain first</small></h3>"
            for fix in fixes {
                guard let audit = result.audits[fix.auditID] else { continue }
                html += "<div id=\"\(id)-\(e(audit.id))\">" + auditDetails(audit, context: context, runs: runs, fix: fix) + "</div>"
            }
        }
        let failing = Set(fixes.map(\.auditID))
        let passing = scored.filter { !failing.contains($0.id) }
        if !passing.isEmpty {
            html += "<details class=\"passing\"><summary>Passing audits (\(passing.count))</summary>"
            for category in RuleCategory.allCases {
                let inCategory = passing.filter { RuleCatalogue.rule($0.id)?.category == category }.sorted { $0.id < $1.id }
                guard !inCategory.isEmpty else { continue }
                html += "<h4>\(e(category.title))</h4>"
                html += "<ul class=\"passed\">" + inCategory.map { passingLine($0, context: context, runs: runs) }.joined() + "</ul>"
            }
            let uncategorised = passing.filter { RuleCatalogue.rule($0.id) == nil }.sorted { $0.id < $1.id }
            if !uncategorised.isEmpty { html += "<ul class=\"passed\">" + uncategorised.map { passingLine($0, context: context, runs: runs) }.joined() + "</ul>" }
            html += "</details>"
        }
        let notApplicable = result.audits.values.filter { $0.score == nil }.sorted { $0.id < $1.id }
        if !notApplicable.isEmpty {
            // One line per reason: "the app wrote nothing" covers all six disk audits.
            var byReason: [String: [AggregatedAudit]] = [:]
            var reasons: [String] = []
            for audit in notApplicable {
                let reason = audit.explanation ?? audit.displayValue
                if byReason[reason] == nil { reasons.append(reason) }
                byReason[reason, default: []].append(audit)
            }
            html += "<details class=\"na\"><summary>Not applicable or unavailable (\(notApplicable.count))</summary><ul>"
            for reason in reasons {
                html += "<li>\(e(reason)): <small>\(byReason[reason]!.map { e($0.title) }.joined(separator: ", "))</small></li>"
            }
            html += "</ul></details>"
        }
        if let energy = result.energy { html += energySection(energy, runs: runs) }
        if let comparison = context.comparison { html += workloadComparison(comparison) }
        for run in runs { html += runDetails(run) }
        return html + "</section>"
    }

    /// A passing audit in one line: its value, its first piece of evidence, its trend and
    /// comparison when there are some, and a link to the rule. The JSON holds the rest.
    static func passingLine(_ audit: AggregatedAudit, context: ResultContext, runs: [RunReport]) -> String {
        let value = audit.numericValue.map { number($0, unit: audit.numericUnit) } ?? e(audit.displayValue)
        var html = "<li>\(badge(audit.score)) \(e(audit.title)) — \(value)"
        if audit.values.count > 1 {
            let unit = audit.numericUnit
            html += " <small title=\"\(e(audit.values.map { $0.map { HumanUnits.format($0, unit: unit) } ?? "–" }.joined(separator: ", ")))\">median of \(audit.values.compactMap { $0 }.count)</small>"
        }
        if let compared = context.comparison?.audits.first(where: { $0.name == audit.id }) { html += " " + comparisonBadge(compared) }
        if let series = context.history?.series(workload: context.result.workload, scenario: context.result.scenario, audit: audit.id),
           series.points.count > 1, trendMoved(series) { html += trendSVG(series) }
        if let evidence = runs.lazy.compactMap({ $0.audits[audit.id]?.evidence.first }).first {
            html += " <small>· \(e(evidence.description))</small>"
        }
        return html + " <a class=\"rule-link\" href=\"#rule-\(e(audit.id))\">rule</a></li>"
    }

    static func auditDetails(_ audit: AggregatedAudit, context: ResultContext, runs: [RunReport], fix: FixPriority?) -> String {
        let rule = RuleCatalogue.rule(audit.id)
        let compared = context.comparison?.audits.first { $0.name == audit.id }
        let series = context.history?.series(workload: context.result.workload, scenario: context.result.scenario, audit: audit.id)
        // A bare count ("3") says less than the audit's own words ("3 changes lost") for one run.
        let value = audit.numericUnit == "count" && audit.values.count == 1 ? e(audit.displayValue)
            : audit.numericValue.map { number($0, unit: audit.numericUnit) + (audit.values.count > 1 ? " <small>median of \(audit.values.compactMap { $0 }.count)</small>" : "") } ?? e(audit.displayValue)
        var html = "<details class=\"audit\"><summary>\(badge(audit.score)) <b>\(e(audit.title))</b> — \(value)"
        if let fix { html += " <span class=\"gain\">\(gainText(fix))</span>" }
        if let compared { html += " " + comparisonBadge(compared) }
        if let series, series.points.count > 1 { html += trendSVG(series) }
        html += "</summary><div class=\"body\"><p class=\"meta\"><code>\(e(audit.id))</code></p>"
        if let fix {
            if !fix.savings.isEmpty { html += "<ul class=\"savings\">" + fix.savings.map { "<li>\(savingText($0)) <small>(\(e($0.basis)))</small></li>" }.joined() + "</ul>" }
            // Advice in the terms of the code under test: a black-box program cannot call Foundation's or FrugalKit's API.
            let platform: FixAdvice.Platform = runs.contains { $0.blackBox == true } ? .program : .swiftApp
            if let advice = FixAdvice.text(audit.id, platform: platform) { html += "<p class=\"advice\"><b>What a fix looks like:</b> \(e(advice))</p>" }
        }
        // The guide's words beside what is to be fixed; the full rule (what it measures, its
        // curve, its calibration) once per report in the reference at the end, not per workload.
        if let rule, fix != nil {
            html += "<blockquote>“\(e(rule.guideQuote))”<cite>\(e(rule.guideSection))</cite></blockquote>"
        }
        if let rule {
            html += "<p><b>Scoring:</b> \(e(curveText(rule.scoring, unit: rule.unit))). <a href=\"#rule-\(e(rule.id))\">The rule</a></p>"
        }
        if let name = auditMetric[audit.id], let metric = runs.lazy.compactMap({ $0.metrics[name] }).first {
            html += "<p><b>Source:</b> <code>\(e(name))</code> from <code>\(e(metric.source))</code></p>"
        }
        if audit.values.count > 1 {
            let unit = audit.numericUnit
            let values = audit.values.map { number($0, unit: unit) }.joined(separator: ", ")
            let spread = audit.madValue.map { "; MAD \(number($0, unit: unit)), min \(number(audit.minValue, unit: unit)), max \(number(audit.maxValue, unit: unit))" } ?? ""
            html += "<p><b>Per run:</b> \(values)\(spread)</p>"
        }
        if let compared { html += "<p><b>Against the baseline:</b> \(e(compared.reason))</p>" }
        if let series, !series.points.isEmpty {
            let points = series.points.map { point in "\(point.score.map { DisplayFormat.score($0) } ?? "–")\(point.commit.map { "@" + String($0.prefix(7)) } ?? "")" }
            html += "<p><b>History</b> (oldest first): \(e(points.joined(separator: " → ")))</p>"
        }
        let evidence = runs.flatMap { run in (run.audits[audit.id]?.evidence ?? []).map { (run.repetition, $0) } }
        // Enough evidence to see the pattern; the rest is in report.json.
        let limit = fix == nil ? 5 : 6
        if !evidence.isEmpty {
            html += "<div class=\"scroll\"><table class=\"evidence\"><thead><tr><th>run</th><th>at</th><th>lasted</th><th>evidence</th></tr></thead><tbody>"
            for (repetition, item) in evidence.prefix(limit) {
                // Closing tags of cells are optional in HTML: a long evidence table costs less without them.
                html += "<tr><td>\(repetition)<td>\(item.time.map(time) ?? "")<td>\(item.durationMs.map { HumanUnits.seconds($0 / 1000) } ?? "")<td>\(e(item.description))"
            }
            html += "</tbody></table></div>"
            if evidence.count > limit { html += "<p class=\"legend\">\(evidence.count - limit) more in report.json</p>" }
        }
        return html + "</div></details>"
    }

    /// Each rule the report's audits used, once: the guide's words, what it measures, its curve
    /// and where the curve's control points come from. Audits link here.
    static func ruleReference(_ report: Report) -> String {
        let used = Set(report.results.flatMap { $0.audits.keys })
        let rules = RuleCatalogue.all.filter { used.contains($0.id) }
        guard !rules.isEmpty else { return "" }
        var html = "<section id=\"rules\"><h2>The rules <small>· \(rules.count) audits, from Apple’s App Programming Guide for iOS</small></h2>"
        for rule in rules {
            html += "<details id=\"rule-\(e(rule.id))\"><summary><b>\(e(rule.title))</b> <code>\(e(rule.id))</code> <small>· \(e(rule.category.title))</small></summary><div class=\"body\">"
            html += "<blockquote>“\(e(rule.guideQuote))”<cite>\(e(rule.guideSection))</cite></blockquote>"
            html += "<p><b>Measures:</b> \(e(rule.measures)).</p><p><b>Scoring:</b> \(e(curveText(rule.scoring, unit: rule.unit))). \(e(rule.calibration))</p>"
            let programs = report.runs.contains { $0.blackBox == true }, apps = report.runs.contains { $0.blackBox != true }
            if apps, let advice = FixAdvice.text(rule.id) {
                html += "<p class=\"advice\"><b>What a fix looks like\(programs ? " in a Swift app" : ""):</b> \(e(advice))</p>"
            }
            if programs, let advice = FixAdvice.text(rule.id, platform: .program) {
                html += "<p class=\"advice\"><b>What a fix looks like\(apps ? " in a program" : ""):</b> \(e(advice))</p>"
            }
            if let evidence = rule.evidence { html += "<p><b>Evidence:</b> \(e(evidence)). <b>Not applicable when:</b> \(e(rule.notApplicableWhen ?? "—")).</p>" }
            html += "</div></details>"
        }
        return html + "</section>"
    }

    static func comparisonBadge(_ entry: ComparisonEntry) -> String {
        let base = number(entry.base?.median, unit: entry.unit)
        let head = number(entry.head?.median, unit: entry.unit)
        let verdict: String
        switch entry.verdict {
        case .regressed: verdict = "<span class=\"regressed\">regressed</span>"
        case .improved: verdict = "<span class=\"improved\">improved</span>"
        case .unchanged: verdict = "unchanged"
        case .insufficientData: verdict = "insufficient repetitions"
        case .inconclusive: verdict = "inconclusive (too noisy to tell at the threshold)"
        }
        return "<small>baseline \(base) → \(head) · \(verdict)</small>"
    }

    /// A small line of the audit's score over recent runs (0 at the bottom, 100 at the top), in
    /// whole units of a 90 × 18 box: the page may carry hundreds of them.
    static func trendSVG(_ series: HistorySeries) -> String {
        let points = series.points.suffix(30)
        let width = 90.0, height = 18.0
        let step = points.count > 1 ? width / Double(points.count - 1) : 0
        var coordinates: [String] = []
        for (index, point) in points.enumerated() {
            guard let score = point.score else { continue }
            coordinates.append("\(Int(saturating: Double(index) * step) ?? 0),\(Int(saturating: height - score * height) ?? 0)")
        }
        let title = e("score over the last \(points.count) runs: " + points.map { $0.score.map { DisplayFormat.score($0) } ?? "–" }.joined(separator: ", "))
        return "<svg class=\"trend\" viewBox=\"-1 -1 92 20\" role=\"img\"><title>\(title)</title><polyline points=\"\(coordinates.joined(separator: " "))\"/></svg>"
    }

    /// Whether a passing audit's history is worth a line: its score moved by 5 points or more.
    /// A flat line says nothing a passing badge does not.
    static func trendMoved(_ series: HistorySeries) -> Bool {
        let scores = series.points.compactMap(\.score)
        guard let low = scores.min(), let high = scores.max() else { return false }
        return high - low >= 0.05
    }
}
