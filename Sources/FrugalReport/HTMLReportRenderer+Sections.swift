import FrugalCore

extension HTMLReportRenderer {
    /// Joules with an SI prefix (a quiet run's energy is a few millijoules), exact on hover.
    static func joules(_ value: Double) -> String { number(value, unit: "J") }

    static func energyCell(_ energy: AggregatedEnergy?) -> String {
        guard let energy, let total = energy.totalJoules else { return "–" }
        return joules(total) + (energy.impact.map { " <small>· \(e($0.level.rawValue))</small>" } ?? "")
    }

    /// The workload's modelled energy in two lines: the total and its parts with their shares
    /// (a part that could not be modelled says why), the impact, and the models by name.
    static func energySection(_ energy: AggregatedEnergy, runs: [RunReport]) -> String {
        let models = runs.first?.energy?.models ?? [:]
        let reasons = runs.first?.energy?.unavailable ?? [:]
        var parts: [String] = []
        for (part, joules) in [("cpu", energy.cpuJoules), ("disk", energy.diskJoules), ("radio", energy.radioJoules)] {
            if let joules {
                let share = energy.impact?.shares[part].map { " (\(DisplayFormat.score($0))&nbsp;%)" } ?? ""
                parts.append("<span title=\"\(e(models[part] ?? ""))\">\(part) \(Self.joules(joules))\(share)</span>")
            } else {
                parts.append("\(part) <span class=\"unavailable\">unavailable</span> <small>(\(e(reasons[part] ?? "not modelled")))</small>")
            }
        }
        var html = "<h3>Energy <small>(modelled; median over runs)</small></h3><p class=\"energy\"><b>\(energy.totalJoules.map { joules($0) } ?? "–")</b> = \(parts.joined(separator: " + "))</p>"
        if let impact = energy.impact {
            html += "<p>Energy impact: <b>\(e(impact.level.rawValue))</b> (\(number(impact.averageWatts, unit: "W")) average; low &lt; \(number(EnergyImpactLevel.highWatts, unit: "W")) ≤ high &lt; \(number(EnergyImpactLevel.veryHighWatts, unit: "W")) ≤ very high)</p>"
        }
        html += measuredEnergyLine(energy, runs: runs)
        let notes = runs.first?.energy?.notes ?? []
        html += "<p class=\"legend\">Models: \(["cpu", "disk", "radio"].compactMap { models[$0].map { "<code>\(e($0))</code>" } }.joined(separator: ", "))\(notes.isEmpty ? "" : ". " + notes.map(e).joined(separator: "; "))</p>"
        return html
    }

    /// The package energy the machine measured (RAPL), labelled measured beside the modelled
    /// total, or why there is none.
    static func measuredEnergyLine(_ energy: AggregatedEnergy, runs: [RunReport]) -> String {
        let source = runs.first?.energy?.measuredSource ?? "powercap:intel-rapl"
        guard let measured = energy.measuredJoules else {
            let reason = runs.first?.energy?.unavailable["measured"] ?? "not read"
            return "<p>Measured energy: <span class=\"unavailable\">unavailable</span> <small>(\(e(reason)))</small></p>"
        }
        return "<p>Measured energy: <b title=\"\(e(source))\">\(joules(measured))</b> <small>(measured by RAPL: the whole package, every process on it, this machine; the modelled figure above prices the app alone on the reference device)</small></p>"
    }

    /// The comparison at the top of the page: regressions first, then improvements, then what
    /// could not be judged; never a claim of values compared that were not.
    static func comparisonSection(_ comparison: ReportComparison) -> String {
        let entries = comparison.results.flatMap { $0.audits + $0.metrics }
        let judged = entries.filter { $0.verdict != .insufficientData }
        var html = "<section id=\"comparison\"><h2>Against the baseline</h2><p class=\"meta\">Baseline \(e(comparison.baseline)) (\(e(comparison.baselineGeneratedAt))). Mann–Whitney U at α = \(e(DisplayFormat.number(comparison.alpha))), bootstrap interval of the median change, minimum effect per value; \(e(ComparisonPolicy(alpha: comparison.alpha, minimumRepetitions: comparison.minimumRepetitions).repetitionRule)).</p>"
        if comparison.results.isEmpty {
            html += "<p class=\"regressed\">Nothing compared: the reports share no workload · scenario.</p>"
        } else if judged.isEmpty {
            html += "<p class=\"regressed\">Nothing judged: \(entries.count) values in \(comparison.results.count) shared workloads, none with enough repetitions on both sides.</p>"
        } else {
            html += "<p>\(judged.count) values judged in \(comparison.results.count) shared workloads\(entries.count > judged.count ? "; \(entries.count - judged.count) not judged (too few repetitions)" : "").</p>"
        }
        if let warning = comparison.machineWarning { html += "<p class=\"regressed\">\(e(warning))</p>" }
        if let shortage = comparison.insufficientRepetitions {
            html += "<p class=\"regressed\">Insufficient repetitions: \(e(shortage))</p>"
        }
        if !comparison.regressions.isEmpty {
            html += "<h3 class=\"regressed\">\(comparison.regressions.count) regression\(comparison.regressions.count == 1 ? "" : "s"), worst first</h3>" + entryTable(comparison.regressions)
        } else if !judged.isEmpty {
            html += "<p>No significant regression.</p>"
        }
        let improved = entries.filter { $0.verdict == .improved }
        if !improved.isEmpty {
            html += "<details><summary>\(improved.count) improvement\(improved.count == 1 ? "" : "s")</summary>" + entryTable(improved) + "</details>"
        }
        for missing in comparison.unmatched { html += "<p class=\"legend\">Unmatched: \(e(missing))</p>" }
        return html + "</section>"
    }

    /// A workload's audits and gating metrics before → after, regressions first.
    static func workloadComparison(_ comparison: WorkloadComparison) -> String {
        func rank(_ entry: ComparisonEntry) -> Int {
            switch entry.verdict {
            case .regressed: return 0
            case .inconclusive: return 1
            case .improved: return 2
            case .insufficientData: return 3
            case .unchanged: return 4
            }
        }
        let entries = (comparison.audits + comparison.metrics.filter { $0.minimumEffect.gating })
            .enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        let regressed = entries.filter { $0.verdict == .regressed }.count
        let score = "\(comparison.baseScore.map { DisplayFormat.score($0) } ?? "–") → \(comparison.headScore.map { DisplayFormat.score($0) } ?? "–")"
        return "<details class=\"run\"\(regressed > 0 ? " open" : "")><summary>Against the baseline: score \(score), \(regressed) regressed of \(entries.count) audits and gating metrics (\(comparison.baseRepetitions) vs \(comparison.headRepetitions) runs)</summary>" + entryTable(entries, showWorkload: false) + "</details>"
    }

    /// ` (score 92 → 41)` for an audit whose score moved.
    static func scoreChange(_ entry: ComparisonEntry) -> String {
        guard entry.kind == .audit, let base = entry.baseScore, let head = entry.headScore else { return "" }
        let before = Int(saturating: base * 100) ?? 0, after = Int(saturating: head * 100) ?? 0
        return before == after ? "" : " <small>(score \(before) → \(after))</small>"
    }

    static func entryTable(_ entries: [ComparisonEntry], showWorkload: Bool = true) -> String {
        var html = "<div class=\"scroll\"><table class=\"metrics\"><thead><tr>\(showWorkload ? "<th>workload</th>" : "")<th>audit or metric</th><th>before → after</th><th>change</th><th>p</th><th>verdict</th></tr></thead><tbody>"
        for entry in entries {
            let change = entry.absoluteChange.map { (($0 >= 0 ? "+" : "") + number($0, unit: entry.unit)) + (entry.relativeChange.map { e(String(format: " (%+.1f %%)", $0 * 100)) } ?? "") } ?? "–"
            let verdictClass = entry.verdict == .regressed ? "regressed" : (entry.verdict == .improved ? "improved" : "")
            let name = entry.kind == .audit ? (RuleCatalogue.rule(entry.name)?.title).map { "\(e($0)) <code>\(e(entry.name))</code>" } ?? "<code>\(e(entry.name))</code>" : "<code>\(e(entry.name))</code>"
            html += "<tr>\(showWorkload ? "<td>\(e(entry.workload)) <small>· \(e(entry.scenario))</small></td>" : "")<td>\(name)</td><td>\(number(entry.base?.median, unit: entry.unit)) → \(number(entry.head?.median, unit: entry.unit))\(scoreChange(entry))</td><td>\(change)</td><td>\(entry.pValue.map { String(format: "%.3g", $0) } ?? "–")</td><td class=\"\(verdictClass)\" title=\"\(e(entry.reason))\">\(e(entry.verdict.rawValue))</td></tr>"
        }
        return html + "</tbody></table></div>"
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
