extension Audits {
    /// Idle time needed to state a rate of no wakeups: a 1 Hz poller wakes in any second of it.
    static let minimumIdleSeconds = 1.0

    /// Idle time needed to state a rate of one wakeup or more: the time over which one wakeup
    /// reads exactly at the rule's poor control point (0.4/s: 2.5 s), where the score crosses
    /// 0.5. Over less, a single wakeup fails the app on its own, so the rate cannot tell one
    /// incidental wakeup (a URLSession's timer after its response, a deferred save) from a timer
    /// that polls: a good weather app's two wakeups in 1.1 s of idle time between a refresh and
    /// leaving once read as 1.8/s of polling. A 1 Hz poller makes two or more in 2.5 s.
    static var decisiveIdleSeconds: Double {
        guard case .logNormal(_, let poor)? = RuleCatalogue.rule("power.avoid-polling")?.scoring, poor > 0 else { return 2.5 }
        return 1 / poor
    }

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
                // Say what the waits were busy with, so a user can tell a busy app from a miss.
                let busy = RunAnalysis.BusyReason.allCases.compactMap { reason -> String? in
                    let seconds = accounts.reduce(0) { $0 + ($1.excludedSeconds[reason] ?? 0) }
                    return seconds > 0 ? "\(DisplayFormat.number(seconds)) s \(reason.rawValue)" : nil
                }
                return .notApplicable("the app was idle for \(DisplayFormat.number(idleSeconds)) s in all, under the \(DisplayFormat.number(Self.minimumIdleSeconds)) s needed for a rate: through its waits it had requests in flight, files being written or frames being drawn (judged by their own audits)"
                                      + (busy.isEmpty ? "" : "; not idle: " + busy.joined(separator: ", ")))
            }
            let idleWakeups = accounts.reduce(0) { $0 + $1.idleWakeups }
            guard idleWakeups == 0 || idleSeconds >= Self.decisiveIdleSeconds else {
                return .notApplicable("\(idleWakeups) wakeup\(idleWakeups == 1 ? "" : "s") in \(DisplayFormat.number(idleSeconds)) s of idle time: under the \(DisplayFormat.number(Self.decisiveIdleSeconds)) s over which one wakeup is a rate at the poor control point, too little to tell a poller from an incidental wakeup")
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
