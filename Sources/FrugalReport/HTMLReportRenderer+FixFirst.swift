import FrugalCore

/// The top of the page: what to fix first across the report, then every workload worst first.
extension HTMLReportRenderer {
    static func fixFirstSection(_ fixes: [FixPriority], report: Report) -> String {
        var html = "<section id=\"fix-first\"><h2>Fix first</h2>"
        guard !fixes.isEmpty else {
            let scored = report.results.filter { $0.score != nil }.count
            if scored == 0 {
                return html + "<p>Nothing to fix, and nothing scored: no audit applies to these runs or could be measured (each workload below says why).</p></section>"
            }
            return html + "<p class=\"allpass\">Every audit that applies passes (\(scored) of \(report.results.count) workloads scored).</p></section>"
        }
        let failing = fixes.filter { ScoreBand(score: $0.score) == .fail }.count
        html += "<p class=\"meta\">\(fixes.count) audit\(fixes.count == 1 ? "" : "s") below the pass line (\(failing) failing) in \(Set(fixes.map { key($0.workload, $0.scenario) }).count) workloads, ordered by what fixing each gains: its workload's score, then the energy saved.</p><ol class=\"fixes\">"
        let programs = Set(report.runs.filter { $0.blackBox == true }.map { key($0.workload, $0.scenario) })
        for (index, fix) in fixes.prefix(topFixes).enumerated() {
            let platform: FixAdvice.Platform = programs.contains(key(fix.workload, fix.scenario)) ? .program : .swiftApp
            html += "<li>" + fixCard(fix, open: index == 0, showWorkload: true, platform: platform) + "</li>"
        }
        html += "</ol>"
        if fixes.count > topFixes {
            html += "<p class=\"meta\">\(fixes.count - topFixes) more in their workloads' sections below.</p>"
        }
        return html + "</section>"
    }

    /// One fix: a summary line (the audit, where, the gain) that opens to the guide's words, the
    /// evidence and what a fix looks like.
    static func fixCard(_ fix: FixPriority, open: Bool, showWorkload: Bool, platform: FixAdvice.Platform = .swiftApp) -> String {
        let rule = RuleCatalogue.rule(fix.auditID)
        var html = "<details class=\"fix\"\(open ? " open" : "")><summary>\(badge(fix.score)) <b>\(e(fix.title))</b>"
        if showWorkload {
            html += " in <a href=\"#\(anchor(fix.workload, fix.scenario))\">\(e(fix.workload))</a> <small>· \(e(fix.scenario))</small>"
        }
        html += " <span class=\"gain\">\(gainText(fix))</span></summary><div class=\"body\">"
        html += "<p><b>Now:</b> \(number(fix.value, unit: fix.unit))"
        if let line = fix.passLine { html += "; passes at \(number(line, unit: fix.unit)) or less" }
        html += ". <b>Fixing it gains</b> \(DisplayFormat.number(fix.scoreGain)) points on \(e(fix.workload))’s score"
        if let now = fix.workloadScore { html += " (\(DisplayFormat.score(now)) → \(DisplayFormat.score(min(1, now + fix.scoreGain / 100))))" }
        html += ".</p>"
        if !fix.savings.isEmpty {
            html += "<ul class=\"savings\">"
            for saving in fix.savings {
                html += "<li>\(savingText(saving)) <small>(\(e(saving.basis)))</small></li>"
            }
            html += "</ul>"
        }
        if let rule {
            html += "<blockquote>“\(e(rule.guideQuote))”<cite>\(e(rule.guideSection))</cite></blockquote>"
        }
        if !fix.evidence.isEmpty {
            html += "<p><b>Evidence</b> (first run with any):</p><ul class=\"evidence\">"
            for item in fix.evidence {
                let when = [item.time.map { "at " + time($0) }, item.durationMs.map { "lasted " + HumanUnits.seconds($0 / 1000) }].compactMap { $0 }.joined(separator: ", ")
                html += "<li>\(e(item.description))\(when.isEmpty ? "" : " <small>(\(when))</small>")</li>"
            }
            html += "</ul>"
        }
        if let advice = FixAdvice.text(fix.auditID, platform: platform) { html += "<p class=\"advice\"><b>What a fix looks like:</b> \(e(advice))</p>" }
        html += "<p class=\"meta\"><a href=\"#\(anchor(fix.workload, fix.scenario))-\(e(fix.auditID))\">The audit in full</a> (scoring, every run, history).</p>"
        return html + "</div></details>"
    }

    /// `+12 points · ≈ 8.7 J per hour idle`: the score gain and the first saving.
    static func gainText(_ fix: FixPriority) -> String {
        var parts = ["+\(DisplayFormat.number(fix.scoreGain)) points"]
        if let saving = fix.savings.first { parts.append(savingText(saving)) }
        return parts.joined(separator: " · ")
    }

    static func savingText(_ saving: FixPriority.Saving) -> String {
        let amount = number(saving.amount, unit: saving.unit)
        switch saving.kind {
        case .energy: return "saves ≈ \(amount) \(e(saving.span))"
        case .bytes, .time, .rate: return "≈ \(amount) less"
        }
    }

    /// Every workload, worst first: its score, what fails, its energy.
    static func summaryTable(_ report: Report, grouped: Grouped) -> String {
        let order = report.results.enumerated().sorted { a, b in
            switch (a.element.score, b.element.score) {
            case let (x?, y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.offset < b.offset
            }
        }.map(\.element)
        let hasBaseline = report.comparison != nil
        var html = "<section id=\"workloads\"><h2>Workloads <small>· worst first</small></h2><div class=\"scroll\"><table class=\"summary\"><thead><tr><th>score</th><th>workload · scenario</th>\(hasBaseline ? "<th>baseline</th>" : "")<th>to fix</th><th>energy</th></tr></thead><tbody>"
        for result in order {
            let own = grouped.fixes(result.workload, result.scenario)
            let outcomes = result.outcomes.filter { $0.key != RunOutcome.completed.rawValue }.sorted { $0.key < $1.key }
                .map { "<span class=\"regressed\">\(e($0.key)) ×\($0.value)</span>" }.joined(separator: " ")
            html += "<tr><td>\(badge(result.score))</td><td><a href=\"#\(anchor(result))\">\(e(result.workload))</a> <small>· \(e(result.scenario)) · \(result.repetitions) run\(result.repetitions == 1 ? "" : "s")</small> \(outcomes)</td>"
            if hasBaseline {
                let base = grouped.comparison(result.workload, result.scenario)
                html += "<td>\(base == nil ? "<small>not in baseline</small>" : badge(base?.baseScore))</td>"
            }
            html += "<td>\(toFixCell(result, fixes: own))</td><td>\(energyCell(result.energy))</td></tr>"
        }
        return html + "</tbody></table></div></section>"
    }

    /// The workload's audits below the pass line, or why there is nothing to fix.
    static func toFixCell(_ result: WorkloadResult, fixes: [FixPriority]) -> String {
        if result.score == nil {
            let count = result.audits.count
            return "<small>not scored: none of its \(count) audits applies or could be measured</small>"
        }
        if fixes.isEmpty { return "<small>nothing: every audit that applies passes</small>" }
        return fixes.prefix(3).map { "\(badge($0.score)) \(e($0.title))" }.joined(separator: "<br>")
            + (fixes.count > 3 ? "<br><small>and \(fixes.count - 3) more</small>" : "")
    }
}
