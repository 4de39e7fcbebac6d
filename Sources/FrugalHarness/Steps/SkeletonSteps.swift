import Foundation
import FrugalCore
import FrugalProbe

/// The skeleton's steps: launch (with the guide's launch watchdog), wait (an idle phase),
/// input, terminate (with its watchdog).
enum SkeletonSteps {
    /// Waits for the first event handled, under the launch watchdog; `step` is `.relaunch` for a relaunch.
    static func launch(_ session: RunSession, index: Int, start: UInt64, step: ScenarioStep = .launch) {
        guard LifecycleSteps.send(session, .ping, for: step, index: index, start: start) else { return }
        let deadline = session.process.spawnTime + RunSession.nanoseconds(session.options.launchWatchdog)
        // The hello comes first: an app built against another protocol is refused before anything
        // it says is read, and never blamed on the watchdog.
        if session.reader.waitForHello(until: deadline), let version = session.reader.helloVersion, version != FrugalProtocol.version {
            session.protocolMismatch = ProtocolMismatch(app: session.workload, appVersion: version)
            session.process.kill(SIGKILL)
            session.ending.stop()
            session.record(step, index: index, start: start, problem: session.protocolMismatch?.description)
            return
        }
        if session.reader.waitForAck(session.sequence, until: deadline) {
            session.record(step, index: index, start: start)
            return
        }
        // Back before the deadline: the event stream ended, so the app is exiting; let the reaper
        // see it, or an app that exits at once would be blamed on the watchdog.
        let now = session.clock.now()
        if now < deadline { _ = session.process.waitForExit(until: min(deadline, now + RunSession.nanoseconds(2))) }
        if session.process.hasExited {
            session.ending.stop()
            return
        }
        let detail = "launch watchdog: no event handled within \(DisplayFormat.number(session.options.launchWatchdog)) s of exec"
            + ScenarioRunner.launchStage(session.reader.snapshot)
        session.kill(outcome: .killedWatchdog, detail: detail)
        session.record(step, index: index, start: start, problem: detail)
    }

    static func wait(_ session: RunSession, _ duration: Double, index: Int, start: UInt64) {
        let end = start + RunSession.nanoseconds(duration)
        if session.killedByScenario {
            // Not running: time passes before a relaunch, with nothing to sample.
            // Interruptible: Ctrl-C must not wait out a long pause before a relaunch.
            session.options.interruption.sleep(until: end, clock: session.clock)
            session.steps.append(StepRecord(index: index, step: .wait(seconds: duration), start: start, end: session.clock.now()))
            return
        }
        let startSample = session.sampler.settledSample(timeout: min(session.options.settleTimeout, duration))
        let exited = session.process.waitForExit(until: end)
        let endSample = exited == nil ? session.sampler.sampleNow() : nil
        session.steps.append(StepRecord(index: index, step: .wait(seconds: duration), start: start, end: session.clock.now(),
                                        phaseStart: startSample?.time ?? start, sampleAtStart: startSample, sampleAtEnd: endSample,
                                problem: exited == nil ? nil : "the workload exited during the wait"))
        if exited != nil { session.ending.stop() }
    }

    static func input(_ session: RunSession, _ kind: String, index: Int, start: UInt64) {
        let problem = session.sendAndWait(.input, argument: kind, until: start + RunSession.nanoseconds(session.options.inputTimeout))
        session.record(.input(kind: kind), index: index, start: start, problem: problem)
    }

    static func terminate(_ session: RunSession, index: Int, start: UInt64) {
        if session.suspension.isSuspended { session.endSuspension(endedBy: "terminate", continueProcess: true) }
        session.ending.requestTerminate()
        guard LifecycleSteps.send(session, .terminate, for: .terminate, index: index, start: start) else {
            session.ending.stop()
            return
        }
        var problem: String?
        if session.process.waitForExit(until: start + RunSession.nanoseconds(session.options.terminateWatchdog)) == nil {
            problem = "terminate watchdog: willTerminate did not return and exit within \(DisplayFormat.number(session.options.terminateWatchdog)) s"
                + (session.reader.openHandlerDescription.map { " (\($0))" } ?? "")
            session.kill(outcome: .killedWatchdog, detail: problem!)
        }
        session.record(.terminate, index: index, start: start, problem: problem)
        session.ending.stop()
    }
}
