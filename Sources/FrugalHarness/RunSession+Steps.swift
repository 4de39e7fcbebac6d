import Foundation
import FrugalCore
import FrugalProbe

/// The skeleton's steps: launch (with the guide's launch watchdog), wait (an idle phase),
/// input, terminate (with its watchdog).
extension RunSession {
    /// Waits for the first event handled, under the launch watchdog; `step` is `.relaunch` for a relaunch.
    func launch(index: Int, start: UInt64, step: ScenarioStep = .launch) {
        sequence += 1
        do {
            try process.send(ControlMessage(sequence: sequence, command: .ping))
        } catch {
            failDelivery("ping", error: error, step: step, index: index, start: start)
            return
        }
        let deadline = process.spawnTime + Self.nanoseconds(options.launchWatchdog)
        // The hello comes first: an app built against another protocol is refused before anything
        // it says is read, and never blamed on the watchdog.
        if reader.waitForHello(until: deadline), let version = reader.helloVersion, version != FrugalProtocol.version {
            protocolMismatch = ProtocolMismatch(app: workload, appVersion: version)
            process.kill(SIGKILL)
            ending.stop()
            record(step, index: index, start: start, problem: protocolMismatch?.description)
            return
        }
        if reader.waitForAck(sequence, until: deadline) {
            record(step, index: index, start: start)
            return
        }
        // Back before the deadline: the event stream ended, so the app is exiting; let the reaper
        // see it, or an app that exits at once would be blamed on the watchdog.
        let now = clock.now()
        if now < deadline { _ = process.waitForExit(until: min(deadline, now + Self.nanoseconds(2))) }
        if process.hasExited {
            ending.stop()
            return
        }
        let detail = "launch watchdog: no event handled within \(DisplayFormat.number(options.launchWatchdog)) s of exec"
            + ScenarioRunner.launchStage(reader.snapshot)
        kill(outcome: .killedWatchdog, detail: detail)
        record(step, index: index, start: start, problem: detail)
    }

    func wait(_ duration: Double, index: Int, start: UInt64) {
        let end = start + Self.nanoseconds(duration)
        if killedByScenario {
            // Not running: time passes before a relaunch, with nothing to sample.
            // Interruptible: Ctrl-C must not wait out a long pause before a relaunch.
            options.interruption.sleep(until: end, clock: clock)
            steps.append(StepRecord(index: index, step: .wait(seconds: duration), start: start, end: clock.now()))
            return
        }
        let startSample = sampler.settledSample(timeout: min(options.settleTimeout, duration))
        let exited = process.waitForExit(until: end)
        let endSample = exited == nil ? sampler.sampleNow() : nil
        steps.append(StepRecord(index: index, step: .wait(seconds: duration), start: start, end: clock.now(),
                                phaseStart: startSample?.time ?? start, sampleAtStart: startSample, sampleAtEnd: endSample,
                                problem: exited == nil ? nil : "the workload exited during the wait"))
        if exited != nil { ending.stop() }
    }

    func input(_ kind: String, index: Int, start: UInt64) {
        let problem = sendAndWait(.input, argument: kind, until: start + Self.nanoseconds(options.inputTimeout))
        record(.input(kind: kind), index: index, start: start, problem: problem)
    }

    func terminate(index: Int, start: UInt64) {
        if isSuspended { endSuspension(endedBy: "terminate", continueProcess: true) }
        sequence += 1
        ending.requestTerminate()
        do {
            try process.send(ControlMessage(sequence: sequence, command: .terminate))
        } catch {
            failDelivery("terminate", error: error, step: .terminate, index: index, start: start)
            ending.stop()
            return
        }
        var problem: String?
        if process.waitForExit(until: start + Self.nanoseconds(options.terminateWatchdog)) == nil {
            problem = "terminate watchdog: willTerminate did not return and exit within \(DisplayFormat.number(options.terminateWatchdog)) s"
                + (reader.openHandlerDescription.map { " (\($0))" } ?? "")
            kill(outcome: .killedWatchdog, detail: problem!)
        }
        record(.terminate, index: index, start: start, problem: problem)
        ending.stop()
    }
}
