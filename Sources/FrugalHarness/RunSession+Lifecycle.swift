import Foundation
import FrugalCore
import FrugalProbe

/// The app's life: interruptions, the background and real suspension, the return to the
/// foreground, the system's kill and a relaunch. The harness is the system: it stops and
/// continues the process and records those state changes itself, since a suspended app runs no code.
extension RunSession {
    func interrupt(_ seconds: Double, index: Int, start: UInt64) {
        let step = ScenarioStep.interrupt(seconds: seconds)
        if let problem = sendAndWait(.resignActive, until: start + Self.nanoseconds(options.inputTimeout)) {
            record(step, index: index, start: start, problem: problem)
            if process.hasExited { ending.stop() }
            return
        }
        let startSample = sampler.settledSample(timeout: min(options.settleTimeout, seconds))
        let exited = process.waitForExit(until: start + Self.nanoseconds(seconds))
        // The end of the inactive phase is sampled before the app is told it is active again.
        let endSample = exited == nil ? sampler.sampleNow() : nil
        let problem = exited == nil
            ? sendAndWait(.becomeActive, until: clock.now() + Self.nanoseconds(options.inputTimeout))
            : "the workload exited while inactive"
        steps.append(StepRecord(index: index, step: step, start: start, end: clock.now(), phaseStart: startSample?.time ?? start,
                                sampleAtStart: startSample, sampleAtEnd: endSample, problem: problem))
        if exited != nil { ending.stop() }
    }

    func home(index: Int, start: UInt64) {
        sequence += 1
        do {
            try process.send(ControlMessage(sequence: sequence, command: .enterBackground))
        } catch {
            // A message that never left is the harness's failure, not a watchdog finding.
            failDelivery("enterBackground", error: error, step: .home, index: index, start: start)
            return
        }
        guard reader.waitForAck(sequence, until: start + Self.nanoseconds(options.backgroundWatchdog)) else {
            if process.hasExited {
                ending.stop()
                record(.home, index: index, start: start, problem: "the workload exited before entering the background")
                return
            }
            let detail = "background watchdog: didEnterBackground did not return within \(DisplayFormat.number(options.backgroundWatchdog)) s"
                + " (\(reader.openHandlerDescription ?? "no handler running"))"
            kill(outcome: .killedWatchdog, detail: detail)
            record(.home, index: index, start: start, problem: detail)
            return
        }
        let entered = clock.now()
        // Sample the start of the background time, so its CPU is measured from here.
        _ = sampler.settledSample(timeout: options.settleTimeout)
        let budget = plan.scenario.effectiveBackgroundTimeBudget
        let budgetEnd = entered + Self.nanoseconds(budget)
        // iOS calls expiration handlers shortly before the time is up: 5 s before, or at three
        // quarters of a shorter budget.
        let expirationAt = entered + Self.nanoseconds(budget - min(5, budget / 4))
        var expirationSent = false
        while !Self.openBackgroundTasks(reader.snapshot).isEmpty {
            let now = clock.now()
            if now >= budgetEnd {
                let open = Self.openBackgroundTasks(reader.snapshot).map { "'\($0.name)' (#\($0.id))" }.joined(separator: ", ")
                let detail = "background task watchdog: background task \(open) still open when the \(DisplayFormat.number(budget)) s of background time ran out"
                    + (expirationSent ? " (its expiration handler had been called)" : "")
                kill(outcome: .killedWatchdog, detail: detail)
                record(.home, index: index, start: start, problem: detail)
                return
            }
            if !expirationSent && now >= expirationAt {
                expirationSent = true
                sequence += 1
                do {
                    try process.send(ControlMessage(sequence: sequence, command: .expireBackgroundTasks))
                } catch {
                    failDelivery("expireBackgroundTasks", error: error, step: .home, index: index, start: start)
                    return
                }
                continue
            }
            _ = reader.wait(until: expirationSent ? budgetEnd : expirationAt) { Self.openBackgroundTasks($0).isEmpty }
            if process.hasExited {
                ending.stop()
                record(.home, index: index, start: start, problem: "the workload exited in the background")
                return
            }
        }
        suspendAfterBackgroundGrace(from: clock.now(), index: index, start: start, subject: "workload",
                                    failure: "the process could not be stopped", suspend: suspend)
    }

    /// The end of `home`: the background grace from `graceStart`, then `suspend`; records the step.
    func suspendAfterBackgroundGrace(from graceStart: UInt64, index: Int, start: UInt64, subject: String, failure: String, suspend: () -> Void) {
        if process.waitForExit(until: graceStart + Self.nanoseconds(options.backgroundGrace)) != nil {
            ending.stop()
            record(.home, index: index, start: start, problem: "the \(subject) exited in the background")
            return
        }
        suspend()
        record(.home, index: index, start: start, problem: isSuspended ? nil : failure)
    }

    /// A control message that could not be written: if the app is gone, the scenario simply stops
    /// (its exit is the finding); otherwise the harness failed, and the run says so as
    /// `harness-error` instead of blaming the app with a watchdog it never had the chance to meet.
    func failDelivery(_ command: String, error: Error, step: ScenarioStep, index: Int, start: UInt64) {
        if process.hasExited || process.waitForExit(until: clock.now() + 100_000_000) != nil {
            ending.stop()
            record(step, index: index, start: start, problem: "the workload exited before \(command) could be delivered")
            return
        }
        let detail = "could not deliver \(command) to the workload: \(error)"
        kill(outcome: .harnessError, detail: detail)
        record(step, index: index, start: start, problem: detail)
    }

    /// Stops the process group (SIGSTOP) once its background time is over, and looks at it from
    /// outside: the first sample is taken once every thread is stopped, the listening sockets then.
    func suspend() {
        process.kill(SIGSTOP)
        hangWatcher.setPaused(true)
        guard let sample = sampler.stoppedSample(timeout: 2) else {
            // Not every thread stopped (or the process is gone): do not leave it half stopped.
            process.kill(SIGCONT)
            hangWatcher.setPaused(false)
            return
        }
        recordSuspension(sample)
    }

    /// Records a suspension that has begun (every thread stopped at `sample`), with the listening
    /// sockets of every process of the run as they stand now.
    func recordSuspension(_ sample: ProcessSample) {
        var sockets = (try? ProcFS.listeningSockets(pid: process.pid)) ?? []
        for pid in otherProcesses() { sockets += (try? ProcFS.listeningSockets(pid: pid)) ?? [] }
        suspension.began(SuspensionRecord(pid: process.pid, start: sample.time, sampleAtStart: sample, listeningSockets: sockets))
        systemEvents.append(WorkloadEvent(time: sample.time, body: .stateChanged(StateChange(from: .background, to: .suspended))))
    }

    /// Ends the current suspension: samples the stopped process one last time, then continues it
    /// (SIGCONT) unless it is about to be killed. Returns when the suspension ended.
    @discardableResult
    func endSuspension(endedBy: String, continueProcess: Bool) -> UInt64 {
        let endSample = sampler.sampleNow()
        if isBlackBox {
            // Frozen or stopped, the program is continued the way it was suspended; a kill reaches
            // a frozen group too, so only continuing needs this.
            if continueProcess || suspendedByFreezer { resumeProgram() }
        } else if continueProcess {
            process.kill(SIGCONT)
        }
        let time = clock.now()
        suspension.ended(at: time, sample: endSample, endedBy: endedBy)
        if continueProcess {
            systemEvents.append(WorkloadEvent(time: time, body: .stateChanged(StateChange(from: .suspended, to: .background))))
        }
        hangWatcher.setPaused(false)
        return time
    }

    func foreground(index: Int, start: UInt64) {
        // A return to the foreground starts at the resume: that is when the user is waiting.
        let resumed = isSuspended ? endSuspension(endedBy: "foreground", continueProcess: true) : start
        let problem = sendAndWait(.enterForeground, until: resumed + Self.nanoseconds(options.inputTimeout))
        record(.foreground, index: index, start: resumed, problem: problem)
        if problem != nil && process.hasExited { ending.stop() }
    }

    /// The system's kill: SIGKILL, no callback, as for a suspended app the system needs memory from.
    func killStep(index: Int, start: UInt64) {
        systemKill(from: isSuspended ? .suspended : currentAppState(), subject: "process", index: index, start: start) {
            process.kill(SIGKILL)
        }
    }

    /// The `kill` step for an app and a black-box program alike: ends the suspension without
    /// continuing, sends the kill (`sendKill`), and records the state change and whether the main
    /// process died within 5 s. `from` is the state before the kill, taken before the suspension ends.
    func systemKill(from: AppState, subject: String, index: Int, start: UInt64, sendKill: () -> Void) {
        if isSuspended { endSuspension(endedBy: "kill", continueProcess: false) }
        sendKill()
        let exit = process.waitForExit(until: clock.now() + Self.nanoseconds(5))
        systemEvents.append(WorkloadEvent(time: exit?.time ?? clock.now(), body: .stateChanged(StateChange(from: from, to: .notRunning))))
        killedByScenario = exit != nil
        record(.kill, index: index, start: start, problem: exit == nil ? "the \(subject) did not die after SIGKILL" : nil)
        if exit == nil { ending.stop() }
    }

    /// A new process in the same sandbox, under the launch watchdog.
    func relaunch(index: Int, start: UInt64) {
        if !process.hasExited {
            let from: AppState = isSuspended ? .suspended : currentAppState()
            if isSuspended { endSuspension(endedBy: "relaunch", continueProcess: false) }
            process.kill(SIGKILL)
            if let exit = process.waitForExit(until: clock.now() + Self.nanoseconds(5)) {
                systemEvents.append(WorkloadEvent(time: exit.time, body: .stateChanged(StateChange(from: from, to: .notRunning))))
            }
        }
        guard relaunchProcess(index: index, start: start) else { return }
        launch(index: index, start: process.spawnTime, step: .relaunch)
    }

    /// Spawns the relaunch's new process in the same sandbox (apps and black-box programs alike);
    /// false, with the step recorded as failed and the scenario stopped, when it could not start.
    func relaunchProcess(index: Int, start: UInt64) -> Bool {
        do {
            try respawn()
            return true
        } catch {
            record(.relaunch, index: index, start: start, problem: "\(error)")
            ending.stop()
            return false
        }
    }

    /// A notification: the app handles it now, or, suspended, finds it queued in its control pipe
    /// when it is continued (the kernel holds it; the runtime coalesces by name).
    func notify(_ name: String, index: Int, start: UInt64) {
        if isSuspended {
            sequence += 1
            let problem: String?
            do {
                try process.send(ControlMessage(sequence: sequence, command: .notification, argument: name))
                problem = nil
            } catch {
                problem = "could not queue \(name): \(error)"
            }
            record(.notify(name: name), index: index, start: start, problem: problem)
            return
        }
        let problem = sendAndWait(.notification, argument: name, until: start + Self.nanoseconds(options.inputTimeout))
        record(.notify(name: name), index: index, start: start, problem: problem)
    }

    /// The app's state as it last reported it.
    func currentAppState() -> AppState {
        for event in reader.snapshot.reversed() {
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
}
