import Foundation
import FrugalCore
import FrugalProbe

/// The app's life: interruptions, the background and real suspension, the return to the
/// foreground, the system's kill and a relaunch. The harness is the system: it stops and
/// continues the process and records those state changes itself, since a suspended app runs no code.
enum LifecycleSteps {
    static func interrupt(_ session: RunSession, _ seconds: Double, index: Int, start: UInt64) {
        let step = ScenarioStep.interrupt(seconds: seconds)
        if let problem = session.sendAndWait(.resignActive, until: start + RunSession.nanoseconds(session.options.inputTimeout)) {
            session.record(step, index: index, start: start, problem: problem)
            if session.process.hasExited { session.ending.stop() }
            return
        }
        let startSample = session.sampler.settledSample(timeout: min(session.options.settleTimeout, seconds))
        let exited = session.process.waitForExit(until: start + RunSession.nanoseconds(seconds))
        // The end of the inactive phase is sampled before the app is told it is active again.
        let endSample = exited == nil ? session.sampler.sampleNow() : nil
        let problem = exited == nil
            ? session.sendAndWait(.becomeActive, until: session.clock.now() + RunSession.nanoseconds(session.options.inputTimeout))
            : "the workload exited while inactive"
        session.steps.append(StepRecord(index: index, step: step, start: start, end: session.clock.now(), phaseStart: startSample?.time ?? start,
                                        sampleAtStart: startSample, sampleAtEnd: endSample, problem: problem))
        if exited != nil { session.ending.stop() }
    }

    static func home(_ session: RunSession, index: Int, start: UInt64) {
        // A message that never left is the harness's failure, not a watchdog finding.
        guard send(session, .enterBackground, for: .home, index: index, start: start) else { return }
        guard session.reader.waitForAck(session.sequence, until: start + RunSession.nanoseconds(session.options.backgroundWatchdog)) else {
            if session.process.hasExited {
                session.ending.stop()
                session.record(.home, index: index, start: start, problem: "the workload exited before entering the background")
                return
            }
            let detail = "background watchdog: didEnterBackground did not return within \(DisplayFormat.number(session.options.backgroundWatchdog)) s"
                + " (\(session.reader.openHandlerDescription ?? "no handler running"))"
            session.kill(outcome: .killedWatchdog, detail: detail)
            session.record(.home, index: index, start: start, problem: detail)
            return
        }
        let entered = session.clock.now()
        // Sample the start of the background time, so its CPU is measured from here.
        _ = session.sampler.settledSample(timeout: session.options.settleTimeout)
        let budget = session.plan.scenario.effectiveBackgroundTimeBudget
        let budgetEnd = entered + RunSession.nanoseconds(budget)
        // iOS calls expiration handlers shortly before the time is up: 5 s before, or at three
        // quarters of a shorter budget.
        let expirationAt = entered + RunSession.nanoseconds(budget - min(5, budget / 4))
        var expirationSent = false
        while !Self.openBackgroundTasks(session.reader.snapshot).isEmpty {
            let now = session.clock.now()
            if now >= budgetEnd {
                let open = Self.openBackgroundTasks(session.reader.snapshot).map { "'\($0.name)' (#\($0.id))" }.joined(separator: ", ")
                let detail = "background task watchdog: background task \(open) still open when the \(DisplayFormat.number(budget)) s of background time ran out"
                    + (expirationSent ? " (its expiration handler had been called)" : "")
                session.kill(outcome: .killedWatchdog, detail: detail)
                session.record(.home, index: index, start: start, problem: detail)
                return
            }
            if !expirationSent && now >= expirationAt {
                expirationSent = true
                guard send(session, .expireBackgroundTasks, for: .home, index: index, start: start) else { return }
                continue
            }
            _ = session.reader.wait(until: expirationSent ? budgetEnd : expirationAt) { Self.openBackgroundTasks($0).isEmpty }
            if session.process.hasExited {
                session.ending.stop()
                session.record(.home, index: index, start: start, problem: "the workload exited in the background")
                return
            }
        }
        suspendAfterBackgroundGrace(session, from: session.clock.now(), index: index, start: start, subject: "workload",
                                    failure: "the process could not be stopped", suspend: { suspendApp(session) })
    }

    static func foreground(_ session: RunSession, index: Int, start: UInt64) {
        // A return to the foreground starts at the resume: that is when the user is waiting.
        let resumed = session.suspension.isSuspended ? session.endSuspension(endedBy: "foreground", continueProcess: true) : start
        let problem = session.sendAndWait(.enterForeground, until: resumed + RunSession.nanoseconds(session.options.inputTimeout))
        session.record(.foreground, index: index, start: resumed, problem: problem)
        if problem != nil && session.process.hasExited { session.ending.stop() }
    }

    /// The system's kill: SIGKILL, no callback, as for a suspended app the system needs memory from.
    static func kill(_ session: RunSession, index: Int, start: UInt64) {
        let from: AppState = session.suspension.isSuspended ? .suspended : currentAppState(session)
        systemKill(session, from: from, subject: "process", index: index, start: start) {
            session.process.kill(SIGKILL)
        }
    }

    /// A new process in the same sandbox, under the launch watchdog.
    static func relaunch(_ session: RunSession, index: Int, start: UInt64) {
        if !session.process.hasExited {
            let from: AppState = session.suspension.isSuspended ? .suspended : currentAppState(session)
            if session.suspension.isSuspended { session.endSuspension(endedBy: "relaunch", continueProcess: false) }
            session.process.kill(SIGKILL)
            if let exit = session.process.waitForExit(until: session.clock.now() + RunSession.nanoseconds(5)) {
                session.systemEvents.append(WorkloadEvent(time: exit.time, body: .stateChanged(StateChange(from: from, to: .notRunning))))
            }
        }
        guard relaunchProcess(session, index: index, start: start) else { return }
        SkeletonSteps.launch(session, index: index, start: session.process.spawnTime, step: .relaunch)
    }

    /// A notification: the app handles it now, or, suspended, finds it queued in its control pipe
    /// when it is continued (the kernel holds it; the runtime coalesces by name).
    static func notify(_ session: RunSession, _ name: String, index: Int, start: UInt64) {
        if session.suspension.isSuspended {
            session.sequence += 1
            let problem: String?
            do {
                try session.process.send(ControlMessage(sequence: session.sequence, command: .notification, argument: name))
                problem = nil
            } catch {
                problem = "could not queue \(name): \(error)"
            }
            session.record(.notify(name: name), index: index, start: start, problem: problem)
            return
        }
        let problem = session.sendAndWait(.notification, argument: name, until: start + RunSession.nanoseconds(session.options.inputTimeout))
        session.record(.notify(name: name), index: index, start: start, problem: problem)
    }

    /// Stops the process group (SIGSTOP) once its background time is over, and looks at it from
    /// outside: the first sample is taken once every thread is stopped, the listening sockets then.
    static func suspendApp(_ session: RunSession) {
        session.process.kill(SIGSTOP)
        session.hangWatcher.setPaused(true)
        guard let sample = session.sampler.stoppedSample(timeout: 2) else {
            // Not every thread stopped (or the process is gone): do not leave it half stopped.
            session.process.kill(SIGCONT)
            session.hangWatcher.setPaused(false)
            return
        }
        recordSuspension(session, sample)
    }

    /// The app's state as it last reported it.
    static func currentAppState(_ session: RunSession) -> AppState {
        for event in session.reader.snapshot.reversed() {
            if case .stateChanged(let change) = event.body { return change.to }
        }
        return .notRunning
    }

    /// The background tasks begun and not ended, from the app's events.
    static func openBackgroundTasks(_ events: [WorkloadEvent]) -> [BackgroundTaskEvent] {
        var open: [Int: BackgroundTaskEvent] = [:]
        for event in events {
            guard case .backgroundTask(let task) = event.body else { continue }
            switch task.phase {
            case .begun: open[task.id] = task
            case .ended: open[task.id] = nil
            case .expirationHandlerCalled: break
            }
        }
        return open.values.sorted { $0.id < $1.id }
    }

    // What an app's and a program's lifecycle steps share.

    /// The end of `home`: the background grace from `graceStart`, then `suspend`; records the step.
    static func suspendAfterBackgroundGrace(_ session: RunSession, from graceStart: UInt64, index: Int, start: UInt64, subject: String,
                                            failure: String, suspend: () -> Void) {
        if session.process.waitForExit(until: graceStart + RunSession.nanoseconds(session.options.backgroundGrace)) != nil {
            session.ending.stop()
            session.record(.home, index: index, start: start, problem: "the \(subject) exited in the background")
            return
        }
        suspend()
        session.record(.home, index: index, start: start, problem: session.suspension.isSuspended ? nil : failure)
    }

    /// Sends `command` as the next control message; false, with `step` failed (``failDelivery``),
    /// when it could not be written.
    static func send(_ session: RunSession, _ command: ControlCommand, for step: ScenarioStep, index: Int, start: UInt64) -> Bool {
        session.sequence += 1
        do {
            try session.process.send(ControlMessage(sequence: session.sequence, command: command))
            return true
        } catch {
            failDelivery(session, command.rawValue, error: error, step: step, index: index, start: start)
            return false
        }
    }

    /// A control message that could not be written: if the app is gone, the scenario simply stops
    /// (its exit is the finding); otherwise the harness failed, and the run says so as
    /// `harness-error` instead of blaming the app with a watchdog it never had the chance to meet.
    static func failDelivery(_ session: RunSession, _ command: String, error: Error, step: ScenarioStep, index: Int, start: UInt64) {
        if session.process.hasExited || session.process.waitForExit(until: session.clock.now() + 100_000_000) != nil {
            session.ending.stop()
            session.record(step, index: index, start: start, problem: "the workload exited before \(command) could be delivered")
            return
        }
        let detail = "could not deliver \(command) to the workload: \(error)"
        session.kill(outcome: .harnessError, detail: detail)
        session.record(step, index: index, start: start, problem: detail)
    }

    /// The `kill` step for an app and a black-box program alike: ends the suspension without
    /// continuing, sends the kill (`sendKill`), and records the state change and whether the main
    /// process died within 5 s. `from` is the state before the kill, taken before the suspension ends.
    static func systemKill(_ session: RunSession, from: AppState, subject: String, index: Int, start: UInt64, sendKill: () -> Void) {
        if session.suspension.isSuspended { session.endSuspension(endedBy: "kill", continueProcess: false) }
        sendKill()
        let exit = session.process.waitForExit(until: session.clock.now() + RunSession.nanoseconds(5))
        session.systemEvents.append(WorkloadEvent(time: exit?.time ?? session.clock.now(), body: .stateChanged(StateChange(from: from, to: .notRunning))))
        session.killedByScenario = exit != nil
        session.record(.kill, index: index, start: start, problem: exit == nil ? "the \(subject) did not die after SIGKILL" : nil)
        if exit == nil { session.ending.stop() }
    }

    /// Spawns the relaunch's new process in the same sandbox (apps and black-box programs alike);
    /// false, with the step recorded as failed and the scenario stopped, when it could not start.
    static func relaunchProcess(_ session: RunSession, index: Int, start: UInt64) -> Bool {
        do {
            try session.respawn()
            return true
        } catch {
            session.record(.relaunch, index: index, start: start, problem: "\(error)")
            session.ending.stop()
            return false
        }
    }

    /// Records a suspension that has begun (every thread stopped at `sample`), with the listening
    /// sockets of every process of the run as they stand now.
    static func recordSuspension(_ session: RunSession, _ sample: ProcessSample) {
        var sockets = (try? ProcFS.listeningSockets(pid: session.process.pid)) ?? []
        for pid in session.otherProcesses() { sockets += (try? ProcFS.listeningSockets(pid: pid)) ?? [] }
        session.suspension.began(SuspensionRecord(pid: session.process.pid, start: sample.time, sampleAtStart: sample, listeningSockets: sockets))
        session.systemEvents.append(WorkloadEvent(time: sample.time, body: .stateChanged(StateChange(from: .background, to: .suspended))))
    }
}
