extension Audits {
    /// Idle time needed to state a rate of wakeups: one wakeup in less would read as over 1/s.
    static let minimumIdleSeconds = 1.0

    /// Power (CPU) audits.
    static let power: [Audit] = [
        Audit("power.avoid-polling") { analysis, metrics in
            guard !analysis.idlePhases.isEmpty else {
                return .notApplicable("the scenario has no idle phase")
            }
            let accounts = analysis.idleAccounts
            let idleSeconds = accounts.reduce(0) { $0 + $1.idleSeconds }
            var evidence = accounts.map { account in
                let excluded = RunAnalysis.BusyReason.allCases.compactMap { reason in
                    account.excludedSeconds[reason].map { "\(DisplayFormat.number($0)) s \(reason.rawValue)" }
                }
                let platform = account.platformWakeups > 0
                    ? "; \(account.platformWakeups) more on libdispatch's manager thread, the platform's, not charged" : ""
                let drawing = account.drawingWakeups > 0
                    ? "; \(account.drawingWakeups) more on the main thread of the active app, drawing at a frame rate (\(DisplayFormat.number(RunAnalysis.lowestFrameRate))/s or more), not charged" : ""
                return Evidence(time: analysis.runTime(account.phase.start), durationMs: account.phase.seconds * 1000,
                                description: "\(account.idleWakeups) wakeups in \(DisplayFormat.number(account.idleSeconds)) s idle"
                                    + platform + drawing
                                    + (excluded.isEmpty ? "" : " (not idle: " + excluded.joined(separator: ", ") + ")"))
            }
            for startup in analysis.programStartups {
                // Where the program's start-up was judged to end, and why: idle time starts after it.
                evidence.append(Evidence(time: startup.end.map(analysis.runTime), description: "start-up (not idle): " + startup.reason))
            }
            if accounts.contains(where: { $0.platformWakeups > 0 }) {
                evidence.append(Evidence(description: "not charged (platform): " + RunAnalysis.platformReason))
            }
            guard idleSeconds >= Self.minimumIdleSeconds else {
                return .notApplicable("the app was idle for \(DisplayFormat.number(idleSeconds)) s in all, under the \(DisplayFormat.number(Self.minimumIdleSeconds)) s needed for a rate: through its waits it had requests in flight, files being written or frames being drawn (judged by their own audits)")
            }
            switch Audit.require(metrics, MetricName.cpuIdleWakeupsPerSecond) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let rate):
                evidence.append(Evidence(description: "idle: a wait's slices between /proc samples with no request in flight, no file being written and no frame drawn; an active app's main thread waking at a frame rate there is drawing, not charged"))
                if let causes = analysis.wakeupCauses, causes.unavailable == nil, let top = causes.topCauseText {
                    evidence.append(Evidence(description: "top idle-wakeup cause (kernel scheduler trace): \(top)"))
                }
                return .value(rate, display: "\(DisplayFormat.number(rate)) wakeups/s while idle", evidence: evidence)
            }
        },
    ]
}
