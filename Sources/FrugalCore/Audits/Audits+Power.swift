import Foundation
extension Audits {
    /// Idle time needed to state a rate of no wakeups: a 1 Hz poller wakes in any second of it.
    static let minimumIdleSeconds = 1.0

    /// Idle time over which one wakeup is a rate at the rule's poor control point (0.4/s: 2.5 s),
    /// where the score crosses 0.5. Over less, a few wakeups fail the app on their own, so the
    /// rate is stated there only when the count is more than a rate at the poor point makes by
    /// chance (``beyondChance(_:seconds:)``): one incidental wakeup (a URLSession's timer after
    /// its response, a deferred save) is not told from a poller by its count. A good weather
    /// app's two wakeups in 1.1 s of idle time between a refresh and leaving once read as 1.8/s
    /// of polling; a shell loop's 40 in 2 s are a poller's.
    static var decisiveIdleSeconds: Double { 1 / poorIdleWakeupRate }

    /// The rule's poor control point, wakeups per second (its scoring's).
    static var poorIdleWakeupRate: Double {
        guard case .logNormal(_, let poor)? = RuleCatalogue.rule("power.avoid-polling")?.scoring, poor > 0 else { return 0.4 }
        return poor
    }

    /// Whether `wakeups` in `seconds` are more than a rate at the poor control point would make
    /// by chance: the one-sided Poisson tail P(N ≥ wakeups) under 5 %.
    static func beyondChance(_ wakeups: Int, seconds: Double) -> Bool {
        let mean = poorIdleWakeupRate * seconds
        var term = exp(-mean), below = 0.0
        for count in 0..<wakeups {
            below += term
            term *= mean / Double(count + 1)
        }
        return 1 - below < 0.05
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
            if !analysis.canDraw {
                // A program waking at a frame rate with no display: say why it is charged.
                let seconds = analysis.frameRateSpans.reduce(0.0) { $0 + Double($1.end - $1.start) / 1e9 }
                if seconds > 0 {
                    evidence.append(Evidence(description: "charged: its main thread woke at a frame rate (\(DisplayFormat.number(RunAnalysis.lowestFrameRate))/s or more) for \(DisplayFormat.number(seconds)) s while active, but its environment named no display server (neither DISPLAY nor WAYLAND_DISPLAY), so it drew nothing: a loop sleeping between checks"))
                }
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
            guard idleWakeups == 0 || idleSeconds >= Self.decisiveIdleSeconds || Self.beyondChance(idleWakeups, seconds: idleSeconds) else {
                return .notApplicable("\(idleWakeups) wakeup\(idleWakeups == 1 ? "" : "s") in \(DisplayFormat.number(idleSeconds)) s of idle time: under the \(DisplayFormat.number(Self.decisiveIdleSeconds)) s over which one wakeup is a rate at the poor control point, and no more than such a rate makes by chance (5 %), too few to tell a poller from incidental wakeups")
            }
            switch Audit.require(metrics, MetricName.cpuIdleWakeupsPerSecond) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let rate):
                evidence.append(Evidence(description: "idle: a wait's slices between /proc samples with no request in flight, no file being written and no frame drawn; an active app's main thread waking at a frame rate there is drawing, not charged, when it has a display to draw on"))
                if let causes = analysis.wakeupCauses, causes.unavailable == nil, let top = causes.topCauseText {
                    evidence.append(Evidence(description: "top idle-wakeup cause (kernel scheduler trace): \(top)"))
                }
                return .value(rate, display: "\(DisplayFormat.number(rate)) wakeups/s while idle", evidence: evidence)
            }
        },
    ]
}
