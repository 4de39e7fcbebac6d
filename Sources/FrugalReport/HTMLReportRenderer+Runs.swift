import FrugalCore

/// A run's details: its one timeline with its legend, the disk tables, the metrics it could not
/// measure grouped once by reason, and the full metric table behind a `<details>`.
extension HTMLReportRenderer {
    static func runDetails(_ run: RunReport) -> String {
        // The first run's timeline is open: the page shows what happened without a click.
        var html = "<details class=\"run\"\(run.repetition == 1 ? " open" : "")><summary>Run \(run.repetition): \(e(run.outcome.rawValue))\(run.outcomeDetail.map { " — " + e($0) } ?? "") · \(number(run.durationSeconds, unit: "s"))</summary>"
        html += "<div class=\"tl\">" + TimelineSVG.render(run.timeline) + "</div>" + TimelineSVG.legend(run.timeline)
        html += traceLink(run) + appleLimitsDetails(run) + wakeupCausesDetails(run)
        html += diskDetails(run)
        html += serverDetails(run)
        if let tls = run.tls {
            // HTTPS through the proxy: a client that refused the run's CA is a finding, shown open.
            let hosts = tls.hosts.map { "\($0.authority): \($0.completed) served" + ($0.refused + $0.closedWithoutRequest + $0.failed > 0 ? ", \($0.refused + $0.closedWithoutRequest + $0.failed) refused or failed" : "") }
            html += "<details class=\"tls\"\(tls.findings.isEmpty ? "" : " open")><summary>HTTPS: \(e(hosts.joined(separator: "; ")))</summary><ul>"
            for finding in tls.findings { html += "<li><strong>\(e(finding))</strong></li>" }
            html += "<li>certificate authority: \(e(tls.certificateAuthority))</li>"
            for note in tls.trust { html += "<li>\(e(note))</li>" }
            html += "</ul></details>"
        }
        if let judged = run.processes?.mainThread {
            html += "<p class=\"main-thread\">Main thread judged: \(e(judged))</p>"
        }
        html += threadDetails(run)
        let measured = run.metrics.filter { $0.value.value != nil }.sorted { $0.key < $1.key }
        let unavailable = run.metrics.filter { $0.value.value == nil }
        if !unavailable.isEmpty {
            // One line per reason: the same reason (no traffic, no journal) covers many metrics.
            var byReason: [String: [String]] = [:]
            for (name, metric) in unavailable { byReason[metric.unavailable ?? "no reason given", default: []].append(name) }
            html += "<details class=\"unavail\"><summary>\(unavailable.count) metric\(unavailable.count == 1 ? "" : "s") not measured in this run, for \(byReason.count) reason\(byReason.count == 1 ? "" : "s")</summary><ul>"
            for (reason, names) in byReason.sorted(by: { ($0.value.count, $1.key) > ($1.value.count, $0.key) }) {
                html += "<li>\(e(reason)) <small>(\(names.sorted().map { "<code>\(e($0))</code>" }.joined(separator: " ")))</small></li>"
            }
            html += "</ul></details>"
        }
        html += "<details class=\"metrics\"><summary>All \(measured.count) measured metrics, with their sources</summary><div class=\"scroll\"><table class=\"metrics mono\"><thead><tr><th>metric</th><th>value</th><th>source</th></tr></thead><tbody>"
        for (name, metric) in measured {
            // Closing tags of cells are optional in HTML; the table is forty rows a run.
            let value = metric.value ?? 0
            let human = HumanUnits.format(value, unit: metric.unit), exact = HumanUnits.exact(value, unit: metric.unit)
            html += "<tr><td>\(e(name))<td\(human == exact ? "" : " title=\"\(e(exact))\"")>\(e(human))<td>\(e(metric.source))"
        }
        return html + "</tbody></table></div></details></details>"
    }

    /// What the run's server answered with, and the findings: requests nothing matched, connections past the proxy.
    static func serverDetails(_ run: RunReport) -> String {
        guard let server = run.server, server.serving != "synthetic routes" || !server.unmatched.isEmpty || !server.unseen.isEmpty else { return "" }
        var html = "<p class=\"server\">Server: \(e(server.serving)) · \(server.requests) request\(server.requests == 1 ? "" : "s")</p>"
        if !server.unmatched.isEmpty {
            html += "<details class=\"unmatched\" open><summary>\(server.unmatched.count) request\(server.unmatched.count == 1 ? "" : "s") the server had no answer for (404)</summary><ul>"
            html += server.unmatched.map { "<li>\(e($0))</li>" }.joined() + "</ul></details>"
        }
        if !server.unseen.isEmpty {
            html += "<p class=\"unseen\">Connections past the proxy (unseen traffic, not shaped or counted): \(server.unseen.map { "<code>\(e($0))</code>" }.joined(separator: " "))</p>"
        }
        return html
    }
}

extension HTMLReportRenderer {
    /// The run's threads, most wakeups first: role and its evidence, wakeups, CPU, and the idle
    /// wakeups charged to the app or, for libdispatch's Linux pool monitor, to the platform.
    static func threadDetails(_ run: RunReport) -> String {
        guard let summary = run.threads else { return "" }
        let shown = summary.threads.count + summary.omitted
        var html = "<details class=\"threads\"><summary>Threads: \(shown), top \(summary.threads.count) by wakeups · idle wakeups charged to the app \(summary.appIdleWakeups)"
            + (summary.platformIdleWakeups > 0 ? ", platform \(summary.platformIdleWakeups)" : "") + "</summary>"
        if let reason = summary.platformReason {
            html += "<p>Platform wakeups are not charged to the app: \(e(reason)).</p>"
        }
        if !summary.rolesFromEvidence {
            html += "<p>The harness took no evidence of the threads' roles in this run: every thread but the main one is unknown, and charged to the app.</p>"
        }
        html += "<div class=\"scroll\"><table class=\"metrics mono threads\"><thead><tr><th>tid</th><th>name</th><th>role</th><th>wakeups</th><th>CPU</th><th>idle wakeups (app / platform)</th><th>evidence</th></tr></thead><tbody>"
        for thread in summary.threads {
            let charged = thread.idleWakeups - thread.platformWakeups
            html += "<tr><td>\(thread.tid)<td>\(e(thread.name))<td>\(e(thread.role.rawValue))<td>\(thread.wakeups)"
                + "<td>\(e(HumanUnits.format(thread.cpuSeconds, unit: "s")))<td>\(charged) / \(thread.platformWakeups)<td>\(e(thread.evidence))"
        }
        html += "</tbody></table></div>"
        if summary.omitted > 0 { html += "<p>\(summary.omitted) more thread\(summary.omitted == 1 ? "" : "s") with fewer wakeups not listed.</p>" }
        return html + "</details>"
    }
}
