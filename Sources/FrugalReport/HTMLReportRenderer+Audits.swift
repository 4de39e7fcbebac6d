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
        "main.no-long-blocks": MetricName.mainThreadBlockingMsPerMinute,
        "lifecycle.launch-time": MetricName.lifecycleLaunchMs,
    ]

    static func resultSection(_ context: ResultContext, runs: [RunReport]) -> String {
        let result = context.result
        var html = "<section id=\"\(anchor(result))\"><h2>\(e(result.workload)) <small>· \(e(result.scenario))</small> \(badge(result.score))</h2>"
        for category in RuleCategory.allCases {
            guard let categoryScore = result.categories[category.rawValue] else { continue }
            html += "<h3>\(e(category.title)) \(badge(categoryScore.score))</h3><div class=\"audits\">"
            let audits = categoryScore.auditIDs.compactMap { result.audits[$0] }.filter { $0.score != nil }
            // Grouped by band, worst first, as Lighthouse lists failing audits before passing ones.
            for band in [ScoreBand.fail, .average, .pass] {
                let inBand = audits.filter { ScoreBand(score: $0.score ?? 0) == band }.sorted { ($0.score ?? 0, $0.id) < ($1.score ?? 0, $1.id) }
                guard !inBand.isEmpty else { continue }
                html += "<p class=\"band\">\(band.rawValue) (\(inBand.count))</p>"
                for audit in inBand { html += auditDetails(audit, context: context, runs: runs) }
            }
            html += "</div>"
        }
        let notApplicable = result.audits.values.filter { $0.score == nil }.sorted { $0.id < $1.id }
        if !notApplicable.isEmpty {
            html += "<details class=\"na\"><summary>Not applicable or unavailable (\(notApplicable.count))</summary><ul>"
            for audit in notApplicable { html += "<li><code>\(e(audit.id))</code>: \(e(audit.explanation ?? audit.displayValue))</li>" }
            html += "</ul></details>"
        }
        if let energy = result.energy { html += energySection(energy, runs: runs) }
        if let comparison = context.comparison { html += metricComparisonTable(comparison) }
        for run in runs { html += runDetails(run) }
        return html + "</section>"
    }

    static func auditDetails(_ audit: AggregatedAudit, context: ResultContext, runs: [RunReport]) -> String {
        let rule = RuleCatalogue.rule(audit.id)
        let compared = context.comparison?.audits.first { $0.name == audit.id }
        let series = context.history?.series(workload: context.result.workload, scenario: context.result.scenario, audit: audit.id)
        var html = "<details class=\"audit\"><summary>\(badge(audit.score)) <b>\(e(audit.title))</b> <code>\(e(audit.id))</code> — \(e(audit.displayValue))"
        if let compared { html += " " + comparisonBadge(compared) }
        if let series, series.points.count > 1 { html += trendSVG(series) }
        html += "</summary><div class=\"body\">"
        if let rule {
            html += "<blockquote>“\(e(rule.guideQuote))”<cite>\(e(rule.guideSection))</cite></blockquote>"
            html += "<p><b>Measures:</b> \(e(rule.measures)).</p><p><b>Scoring:</b> \(e(curveText(rule.scoring, unit: rule.unit))). \(e(rule.calibration))</p>"
        }
        if let name = auditMetric[audit.id], let metric = runs.lazy.compactMap({ $0.metrics[name] }).first {
            html += "<p><b>Source:</b> <code>\(e(name))</code> from <code>\(e(metric.source))</code></p>"
        } else {
            html += "<p><b>Source:</b> each run's metrics below name their sources.</p>"
        }
        if audit.values.count > 1 {
            let values = audit.values.map { $0.map { DisplayFormat.number($0) } ?? "–" }.joined(separator: ", ")
            let spread = audit.madValue.map { "; MAD \(DisplayFormat.number($0)), min \(audit.minValue.map(DisplayFormat.number) ?? "–"), max \(audit.maxValue.map(DisplayFormat.number) ?? "–")" } ?? ""
            html += "<p><b>Per run:</b> \(e(values)) \(e(audit.numericUnit))\(e(spread))</p>"
        }
        if let compared { html += "<p><b>Against the baseline:</b> \(e(compared.reason))</p>" }
        if let series, !series.points.isEmpty {
            let points = series.points.map { point in "\(point.score.map { DisplayFormat.score($0) } ?? "–")\(point.commit.map { "@" + String($0.prefix(7)) } ?? "")" }
            html += "<p><b>History</b> (oldest first): \(e(points.joined(separator: " → ")))</p>"
        }
        let evidence = runs.flatMap { run in (run.audits[audit.id]?.evidence ?? []).map { (run.repetition, $0) } }
        if !evidence.isEmpty {
            html += "<table class=\"evidence\"><thead><tr><th>run</th><th>at</th><th>lasted</th><th>evidence</th></tr></thead><tbody>"
            for (repetition, item) in evidence.prefix(50) {
                html += "<tr><td>\(repetition)</td><td>\(item.time.map { DisplayFormat.number($0) + " s" } ?? "")</td><td>\(item.durationMs.map { DisplayFormat.number($0) + " ms" } ?? "")</td><td>\(e(item.description))</td></tr>"
            }
            html += "</tbody></table>"
            if evidence.count > 50 { html += "<p class=\"legend\">\(evidence.count - 50) more in report.json</p>" }
        }
        return html + "</div></details>"
    }

    static func comparisonBadge(_ entry: ComparisonEntry) -> String {
        let base = entry.base.map { DisplayFormat.number($0.median) } ?? "–"
        let head = entry.head.map { DisplayFormat.number($0.median) } ?? "–"
        let verdict: String
        switch entry.verdict {
        case .regressed: verdict = "<span class=\"regressed\">regressed</span>"
        case .improved: verdict = "<span class=\"improved\">improved</span>"
        case .unchanged: verdict = "unchanged"
        case .insufficientData: verdict = "insufficient repetitions"
        }
        return "<small>baseline \(e(base)) → \(e(head)) · \(verdict)</small>"
    }

    /// A small line of the audit's score over recent runs (0 at the bottom, 100 at the top).
    static func trendSVG(_ series: HistorySeries) -> String {
        let points = series.points.suffix(30)
        let width = 90.0, height = 18.0
        let step = points.count > 1 ? width / Double(points.count - 1) : 0
        var coordinates: [String] = []
        for (index, point) in points.enumerated() {
            guard let score = point.score else { continue }
            coordinates.append(String(format: "%.1f,%.1f", Double(index) * step, height - score * height))
        }
        let title = e("score over the last \(points.count) runs: " + points.map { $0.score.map { DisplayFormat.score($0) } ?? "–" }.joined(separator: ", "))
        return "<svg class=\"trend\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"-1 -1 \(Int(width) + 2) \(Int(height) + 2)\" role=\"img\" aria-label=\"trend\"><title>\(title)</title><polyline fill=\"none\" stroke=\"#5c6bc0\" stroke-width=\"1.5\" points=\"\(coordinates.joined(separator: " "))\"/></svg>"
    }
}
