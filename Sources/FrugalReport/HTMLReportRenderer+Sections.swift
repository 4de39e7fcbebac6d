import FrugalCore

extension HTMLReportRenderer {
    /// Three significant digits: a quiet run's energy is a few millijoules.
    static func joules(_ value: Double) -> String { String(format: "%.3g", value) }

    static func energyCell(_ energy: AggregatedEnergy?) -> String {
        guard let energy, let total = energy.totalJoules else { return "–" }
        return "\(joules(total)) J" + (energy.impact.map { " · \(e($0.level.rawValue))" } ?? "")
    }

    static func energySection(_ energy: AggregatedEnergy, runs: [RunReport]) -> String {
        var html = "<h3>Energy <small>(modelled; median over runs)</small></h3><table class=\"energy\"><thead><tr><th>part</th><th>joules</th><th>share</th><th>model</th></tr></thead><tbody>"
        let models = runs.first?.energy?.models ?? [:]
        let reasons = runs.first?.energy?.unavailable ?? [:]
        for (part, joules) in [("cpu", energy.cpuJoules), ("disk", energy.diskJoules), ("radio", energy.radioJoules)] {
            let value = joules.map { Self.joules($0) } ?? "<span class=\"unavailable\">unavailable: \(e(reasons[part] ?? "not modelled"))</span>"
            let share = energy.impact?.shares[part].map { "\(DisplayFormat.score($0)) %" } ?? "–"
            html += "<tr><td>\(part)</td><td>\(value)</td><td>\(share)</td><td><code>\(e(models[part] ?? ""))</code></td></tr>"
        }
        html += "<tr><th>total</th><th>\(energy.totalJoules.map { joules($0) } ?? "–")</th><th></th><th></th></tr></tbody></table>"
        if let impact = energy.impact {
            html += "<p>Energy impact: <b>\(e(impact.level.rawValue))</b> (\(e(DisplayFormat.number(impact.averageWatts * 1000))) mW average; low &lt; \(Int(EnergyImpactLevel.highWatts * 1000)) mW ≤ high &lt; \(Int(EnergyImpactLevel.veryHighWatts * 1000)) mW ≤ very high)</p>"
        }
        for note in runs.first?.energy?.notes ?? [] { html += "<p class=\"legend\">\(e(note))</p>" }
        return html
    }

    static func comparisonSection(_ comparison: ReportComparison) -> String {
        var html = "<section><h2>Against the baseline</h2><p class=\"meta\">Baseline \(e(comparison.baseline)) (\(e(comparison.baselineGeneratedAt))). Mann–Whitney U at α = \(e(DisplayFormat.number(comparison.alpha))), bootstrap interval of the median change, minimum effect per value; at least \(comparison.minimumRepetitions) repetitions per side.</p>"
        if let shortage = comparison.insufficientRepetitions {
            html += "<p class=\"regressed\">Insufficient repetitions: \(e(shortage))</p>"
        }
        if comparison.regressions.isEmpty {
            html += "<p>No significant regression.</p>"
        } else {
            html += "<p class=\"regressed\">\(comparison.regressions.count) regression\(comparison.regressions.count == 1 ? "" : "s"), worst first:</p>" + entryTable(comparison.regressions)
        }
        for missing in comparison.unmatched { html += "<p class=\"legend\">Unmatched: \(e(missing))</p>" }
        return html + "</section>"
    }

    static func metricComparisonTable(_ comparison: WorkloadComparison) -> String {
        "<details class=\"run\"><summary>Metrics against the baseline (\(comparison.baseRepetitions) vs \(comparison.headRepetitions) runs)</summary>" + entryTable(comparison.metrics) + "</details>"
    }

    static func entryTable(_ entries: [ComparisonEntry]) -> String {
        var html = "<table class=\"metrics\"><thead><tr><th>workload</th><th>audit or metric</th><th>baseline</th><th>head</th><th>change</th><th>p</th><th>verdict</th></tr></thead><tbody>"
        for entry in entries {
            let change = entry.absoluteChange.map { (($0 >= 0 ? "+" : "") + DisplayFormat.number($0)) + (entry.relativeChange.map { String(format: " (%+.1f%%)", $0 * 100) } ?? "") } ?? "–"
            let verdictClass = entry.verdict == .regressed ? "regressed" : (entry.verdict == .improved ? "improved" : "")
            html += "<tr><td>\(e(entry.workload))</td><td><code>\(e(entry.name))</code></td><td>\(entry.base.map { DisplayFormat.number($0.median) } ?? "–") \(e(entry.unit))</td><td>\(entry.head.map { DisplayFormat.number($0.median) } ?? "–")</td><td>\(e(change))</td><td>\(entry.pValue.map { String(format: "%.3g", $0) } ?? "–")</td><td class=\"\(verdictClass)\" title=\"\(e(entry.reason))\">\(e(entry.verdict.rawValue))</td></tr>"
        }
        return html + "</tbody></table>"
    }

    static func assertionSection(_ outcome: AssertionOutcome) -> String {
        let failing = outcome.results.filter { !$0.passed }
        var html = "<section><h2>Assertions\(outcome.preset.map { " <small>· \(e($0))</small>" } ?? "")</h2>"
        if failing.isEmpty { return html + "<p>All \(outcome.results.count) assertions pass.</p></section>" }
        html += "<table class=\"metrics\"><thead><tr><th>level</th><th>workload</th><th>assertion</th></tr></thead><tbody>"
        for check in failing {
            html += "<tr><td class=\"\(check.level == .error ? "regressed" : "")\">\(e(check.level.rawValue))</td><td>\(e(check.workload)) · \(e(check.scenario))</td><td>\(e(check.message))</td></tr>"
        }
        return html + "</tbody></table></section>"
    }
}
