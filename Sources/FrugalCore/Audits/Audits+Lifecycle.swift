extension Audits {
    /// Lifecycle audits.
    static let lifecycle: [Audit] = [
        Audit("lifecycle.launch-time") { analysis, metrics in
            if analysis.record.outcome == .killedWatchdog, analysis.launchNanoseconds == nil {
                // Killed before handling an event: the launch took at least the watchdog's limit.
                let limit = Thresholds.launchWatchdogSeconds * 1000
                return .value(limit, display: "killed by the launch watchdog after \(DisplayFormat.number(limit)) ms",
                              evidence: [Evidence(time: Thresholds.launchWatchdogSeconds, description: analysis.record.outcomeDetail ?? "launch watchdog")])
            }
            switch Audit.require(metrics, MetricName.lifecycleLaunchMs) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let ms):
                let launchHandlers = analysis.handlers.filter { $0.name == "didFinishLaunching" || $0.name == "didBecomeActive" }
                var evidence = launchHandlers.prefix(2).map {
                    Evidence(time: analysis.runTime($0.start), durationMs: Double($0.duration) / 1e6,
                             description: "\($0.name) took \(DisplayFormat.number(Double($0.duration) / 1e6)) ms")
                }
                if let relaunch = metrics[MetricName.lifecycleRelaunchMs]?.value {
                    evidence.append(Evidence(durationMs: relaunch, description: "the relaunched app handled its first event after \(DisplayFormat.number(relaunch)) ms"))
                }
                return .value(ms, display: "\(DisplayFormat.number(ms)) ms to the first event handled", evidence: evidence)
            }
        },
        Audit("lifecycle.background-transition") { analysis, metrics in
            if let watchdog = watchdogKill(analysis, handler: "didEnterBackground") { return watchdog }
            guard metrics[MetricName.lifecycleBackgroundTransitionMs] != nil else { return .notApplicable("the app never entered the background") }
            switch Audit.require(metrics, MetricName.lifecycleBackgroundTransitionMs) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let ms):
                let evidence = analysis.handlers.filter { $0.name == "didEnterBackground" }.map {
                    Evidence(time: analysis.runTime($0.start), durationMs: Double($0.duration) / 1e6,
                             description: "didEnterBackground returned after \(DisplayFormat.number(Double($0.duration) / 1e6)) ms (watchdog: 5 s)")
                }
                return .value(ms, display: "\(DisplayFormat.number(ms)) ms in didEnterBackground", evidence: evidence)
            }
        },
        Audit("lifecycle.save-state") { analysis, metrics in
            guard metrics[MetricName.lifecycleLostChanges] != nil else {
                return .notApplicable("the scenario did not kill and relaunch an app that adopts StatePreserving")
            }
            switch Audit.require(metrics, MetricName.lifecycleLostChanges) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let lost):
                let evidence = analysis.preservationChecks.map { check in
                    Evidence(time: analysis.runTime(check.restoredAt),
                             description: "had \(check.had.count) values on entering the background; the relaunched app restored \(check.restored.count)"
                                 + (check.lost.isEmpty ? "; none lost" : "; lost: \(check.lost.prefix(10).joined(separator: ", "))"))
                }
                return .value(lost, display: "\(DisplayFormat.number(lost)) change\(lost == 1 ? "" : "s") lost after kill and relaunch", evidence: evidence)
            }
        },
        Audit("lifecycle.quiesce-when-inactive") { analysis, metrics in
            guard !analysis.inactivePhases.isEmpty else { return .notApplicable("the scenario has no interruption (inactive phase)") }
            let accounts = analysis.inactiveAccounts
            let requestSeconds = accounts.reduce(0) { $0 + $1.requestSeconds }
            let followUpSeconds = accounts.reduce(0) { $0 + $1.followUpSeconds }
            if metrics[MetricName.lifecycleInactiveWakeupsPerSecond] == nil, followUpSeconds > 0 {
                return .notApplicable("the app was finishing what an input before the interruption started (a debounce's cancelled timers, then quiet) through \(DisplayFormat.number(followUpSeconds)) s"
                                      + (requestSeconds > 0 ? " and waiting on its network requests through \(DisplayFormat.number(requestSeconds)) s" : "")
                                      + " of its \(DisplayFormat.number(accounts.reduce(0) { $0 + $1.phase.seconds })) s inactive, leaving under 1 s to judge")
            }
            if metrics[MetricName.lifecycleInactiveWakeupsPerSecond] == nil, requestSeconds > 0 {
                return .notApplicable("the app was waiting on its network requests through \(DisplayFormat.number(requestSeconds)) s of its \(DisplayFormat.number(accounts.reduce(0) { $0 + $1.phase.seconds })) s inactive, which the guide allows (\"You can continue processing network requests and other time-sensitive background tasks while inactive\"), leaving under 1 s to judge")
            }
            switch Audit.require(metrics, MetricName.lifecycleInactiveWakeupsPerSecond) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let rate):
                let evidence = accounts.map { account in
                    var text = "\(account.chargedWakeups) wakeups in \(DisplayFormat.number(account.judgedSeconds)) s inactive"
                    if account.platformWakeups > 0 { text += "; \(account.platformWakeups) more on libdispatch's manager thread, the platform's, not charged" }
                    if account.requestSeconds > 0 {
                        text += " (not judged: \(DisplayFormat.number(account.requestSeconds)) s a network request in flight, which the guide allows while inactive)"
                    }
                    if account.followUpSeconds > 0 {
                        text += " (not judged: \(DisplayFormat.number(account.followUpSeconds)) s finishing what an input before the interruption started: timers it armed and cancelled, which still fire once each, then quiet)"
                    }
                    return Evidence(time: analysis.runTime(account.phase.start), durationMs: account.phase.seconds * 1000, description: text)
                }
                return .value(rate, display: "\(DisplayFormat.number(rate)) wakeups/s while inactive", evidence: evidence)
            }
        },
        Audit("lifecycle.minimal-background-work") { analysis, metrics in
            guard let work = analysis.backgroundWorkOutsideTasks, work.backgroundSeconds > 0 else {
                return .notApplicable("the app spent no sampled time in the background outside background tasks")
            }
            switch Audit.require(metrics, MetricName.lifecycleBackgroundCpuSeconds) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let cpu):
                // A rate over less than a second is taken over one second: a task-free
                // moment of half a second before
                // suspension (1 ms of the runtime winding down) once read 0.11 CPU s/min.
                let perMinute = cpu / (max(work.backgroundSeconds, 1) / 60)
                return .value(perMinute, display: "\(DisplayFormat.number(perMinute)) CPU s/min in the background outside tasks",
                              evidence: [Evidence(durationMs: work.backgroundSeconds * 1000,
                                                  description: "\(DisplayFormat.number(cpu * 1000)) ms of CPU in \(DisplayFormat.number(work.backgroundSeconds)) s of background with no task open")])
            }
        },
        Audit("lifecycle.end-background-tasks") { analysis, metrics in
            let tasks = analysis.backgroundTasks
            guard !tasks.isEmpty else { return .notApplicable("the app began no background task") }
            switch Audit.require(metrics, MetricName.lifecycleExpiredBackgroundTasks) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let expired):
                var evidence = tasks.map { task -> Evidence in
                    let state: String
                    if task.reachedExpirationUnended {
                        state = "never ended, though its expiration handler was called at \(DisplayFormat.number(analysis.runTime(task.expirationHandlerCalled ?? 0))) s"
                    } else if let ended = task.ended, task.expirationHandlerCalled != nil {
                        state = "ended in time for its expiration, after \(DisplayFormat.number(Double(ended - task.begun) / 1e6)) ms"
                    } else if let ended = task.ended {
                        state = "ended after \(DisplayFormat.number(Double(ended - task.begun) / 1e6)) ms"
                    } else {
                        state = "never ended"
                    }
                    return Evidence(time: analysis.runTime(task.begun), description: "background task '\(task.name)' (#\(task.id)) \(state)")
                }
                if analysis.record.outcome == .killedWatchdog, let detail = analysis.record.outcomeDetail, detail.contains("background task") {
                    evidence.append(Evidence(description: detail))
                }
                return .value(expired, display: "\(DisplayFormat.number(expired)) of \(tasks.count) background task\(tasks.count == 1 ? "" : "s") ran out of background time unended",
                              evidence: evidence)
            }
        },
        Audit("lifecycle.close-listeners") { analysis, metrics in
            let suspensions = analysis.record.suspensions ?? []
            guard !suspensions.isEmpty else { return .notApplicable("the app was never suspended") }
            switch Audit.require(metrics, MetricName.lifecycleListeningSocketsWhileSuspended) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let count):
                let evidence = suspensions.flatMap { suspension in
                    suspension.listeningSockets.map {
                        Evidence(time: analysis.runTime(suspension.start),
                                 description: "listening on \($0.proto) \($0.localAddress) (fd \($0.fd), inode \($0.inode)) while suspended")
                    }
                }
                return .value(count, display: "\(DisplayFormat.number(count)) listening socket\(count == 1 ? "" : "s") open while suspended", evidence: evidence)
            }
        },
        Audit("lifecycle.resume-fast") { analysis, metrics in
            let resumes = analysis.resumes
            guard !resumes.isEmpty else { return .notApplicable("the app never returned to the foreground") }
            switch Audit.require(metrics, MetricName.lifecycleResumeMs) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let ms):
                let evidence = resumes.flatMap { resume in
                    resume.handlers.map {
                        Evidence(time: analysis.runTime($0.start), durationMs: Double($0.duration) / 1e6,
                                 description: "\($0.name) took \(DisplayFormat.number(Double($0.duration) / 1e6)) ms on the way back")
                    }
                }
                return .value(ms, display: "\(DisplayFormat.number(ms)) ms from resume to the main thread free again (didBecomeActive returned, and the work queued with it ran)", evidence: evidence)
            }
        },
    ]

    /// The measurement of a run a watchdog killed in `handler`, if that is how it ended.
    static func watchdogKill(_ analysis: RunAnalysis, handler: String) -> AuditMeasurement? {
        guard analysis.record.outcome == .killedWatchdog, let detail = analysis.record.outcomeDetail, detail.contains(handler) else { return nil }
        // The handler never returned: it ran from its start to the kill, at least that long.
        let began = analysis.record.events.last { event in
            if case .handlerBegan(let begin) = event.body { return begin.name == handler }
            return false
        }
        guard let began else {
            return .value(Thresholds.launchWatchdogSeconds * 1000, display: "killed by the watchdog in \(handler)", evidence: [Evidence(description: detail)])
        }
        let ms = Double(analysis.record.endTime &- began.time) / 1e6
        return .value(ms, display: "killed by the watchdog: \(handler) ran \(DisplayFormat.number(ms)) ms without returning",
                      evidence: [Evidence(time: analysis.runTime(began.time), durationMs: ms, description: detail)])
    }
}
