import FrugalCore

/// The report's links to each run's Perfetto trace, how to open them, and Apple's limits.
extension HTMLReportRenderer {
    /// A run's trace link (relative to report.html, which sits beside the traces folder), or why
    /// it has none.
    static func traceLink(_ run: RunReport) -> String {
        guard let trace = run.trace else { return "" }
        if let path = trace.path {
            return "<p class=\"trace\">Perfetto trace: <a href=\"\(e(path))\" download>\(e(path))</a>\(trace.bytes.map { " (" + number(Double($0), unit: "bytes") + ")" } ?? "") — open it in <a href=\"https://ui.perfetto.dev\">ui.perfetto.dev</a> (drag and drop; see “Traces” below).</p>"
        }
        return trace.omitted.map { "<p class=\"trace\">No Perfetto trace: \(e($0)).</p>" } ?? ""
    }

    /// How to open the traces, once, when any run has one.
    static func tracesSection(_ report: Report) -> String {
        let written = report.runs.compactMap { $0.trace?.path }
        guard !written.isEmpty else { return "" }
        return """
        <section id="traces"><h2>Traces</h2><p>Each run has a Perfetto trace in <code>\(e(TraceFiles.directory))/</code> \
        (\(written.count) file\(written.count == 1 ? "" : "s")): a track per thread with its wakeups/s and CPU, the main thread's \
        handlers and hangs, the scenario's steps and injected events, memory, bytes written, the radio's state, and network \
        requests with a flow to their completion handler.</p><ul>\
        <li>Locally: open <a href="https://ui.perfetto.dev">ui.perfetto.dev</a> and drag the <code>.pftrace</code> file onto it. \
        The UI runs in the browser; the trace is not uploaded.</li>\
        <li>From CI: a trace served over https opens directly with <code>https://ui.perfetto.dev/#!/?url=</code> followed by \
        the trace's URL, when its server lets ui.perfetto.dev fetch it (CORS); otherwise download the artifact and drag it in.</li>\
        <li>The run's metrics are on the slice of the <em>Run</em> track: click it to see them with their sources.</li></ul></section>
        """
    }

    /// Apple's limits judged on a run (`--rules apple-limits`), apart from the guide's audits.
    static func appleLimitsDetails(_ run: RunReport) -> String {
        guard let results = run.appleLimits, !results.isEmpty else { return "" }
        let tripping = results.filter { $0.status == .exceeded || $0.status == .wouldTrip }
        var html = "<details class=\"apple-limits\"\(tripping.isEmpty ? "" : " open")><summary>Apple's enforced limits (\(tripping.count) of \(results.count) exceeded or would trip; not scored)</summary><table><thead><tr><th>limit</th><th>status</th><th>result</th><th>source</th></tr></thead><tbody>"
        for result in results {
            let limit = AppleLimits.all.first { $0.id == result.id }
            html += "<tr><td>\(e(limit?.title ?? result.id))<br><small>\(e(limit?.limit ?? ""))</small><td>\(e(result.status.rawValue))<td>\(e(result.summary))\(result.measuredSource.map { "<br><small>measured: \(e($0))</small>" } ?? "")<td><small>\(e(result.source))</small>"
        }
        return html + "</tbody></table></details>"
    }
}

/// Each run's wakeups by cause (`RunWakeupCauses`).
extension HTMLReportRenderer {
    /// The top causes of a run's idle wakeups with their functions and shares, or why they
    /// could not be traced.
    static func wakeupCausesDetails(_ run: RunReport) -> String {
        guard let causes = run.wakeupCauses else { return "" }
        if let reason = causes.unavailable {
            return "<p class=\"wakeup-causes\">Wakeup causes: unavailable — \(e(reason)).</p>"
        }
        // Shares come from a file anyone can write: a NaN or 1e308 share trapped `Int(_:)`.
        let share = causes.attributedShare.map { " \(percent($0))% of \(causes.traced) traced wakeups named a function." } ?? ""
        let scope = causes.scope == "idle" ? "idle wakeups" : "wakeups (the run had no idle slice)"
        var html = "<details class=\"wakeup-causes\"><summary>Top causes of \(causes.scopeWakeups) \(scope)</summary><p><small>\(e(causes.source)).\(share)"
        if let cpu = causes.tracerCPUSeconds { html += " Tracing cost the harness \(e(DisplayFormat.number(cpu * 1000))) ms of CPU." }
        if causes.lostSamples > 0 { html += " \(causes.lostSamples) samples lost (buffer full): some wakeups are missing." }
        html += "</small></p>"
        guard !causes.top.isEmpty else { return html + "<p>None.</p></details>" }
        html += "<table><thead><tr><th>cause</th><th>function</th><th>share</th><th>threads</th></tr></thead><tbody>"
        for row in causes.top {
            let cause = row.cause
            let function = (cause.symbol.map { "<code>\(e($0))</code>" } ?? "not named") + (cause.module.map { " <small>(\(e($0)))</small>" } ?? "")
            let how = [cause.via.map { "waited in \($0)" }, cause.handler.map { "then ran handler \($0)" }, cause.from.map { "named from the \($0 == "inferred" ? "platform's known timer" : $0 + " stack")" }].compactMap { $0 }
            let kinds = row.kinds.count > 1 ? row.kinds.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                : cause.kind.rawValue
            html += "<tr><td>\(e(kinds))\(how.isEmpty ? "" : "<br><small>\(e(how.joined(separator: "; ")))</small>")<td>\(function)\(cause.note.map { "<br><small>\(e($0))</small>" } ?? "")"
            html += "<td>\(percent(row.share))% (\(row.count))<td><small>\(e(row.threads.joined(separator: ", ")))</small>"
        }
        return html + "</tbody></table></details>"
    }

    /// A share in [0, 1] as a whole percent, saturated; "–" for NaN.
    private static func percent(_ share: Double) -> String {
        Int(saturating: share * 100).map(String.init) ?? "–"
    }
}
