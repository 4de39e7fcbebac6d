import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import CFrugalSystem

/// The harness's watchdogs and suspension against an in-memory app on a manual clock
/// (`Doubles/`): each runs in milliseconds, at exactly the guide's seconds, and fails if the
/// watchdog is taken out. The real-process tests (`ScenarioRunnerTests`, `LifecycleHarnessTests`)
/// keep one run per watchdog against a real app.
final class WatchdogTests: XCTestCase {
    /// A runner whose apps are `SimulatedApp`s on `clock`; the workload host is never started.
    static func runner(_ launcher: SimulatedAppLauncher, _ configure: (inout HarnessOptions) -> Void = { _ in }) -> ScenarioRunner {
        var options = HarnessOptions(workloadHost: "/nonexistent/simulated-app")
        configure(&options)
        return ScenarioRunner(options: options, launcher: launcher, clock: launcher.clock)
    }

    static func plan(_ steps: [ScenarioStep], backgroundTimeBudget: Double? = nil) -> RunPlan {
        RunPlan(target: .builtIn(name: "simulated"),
                scenario: Scenario(name: "test", summary: "test", steps: steps, backgroundTimeBudget: backgroundTimeBudget), repetition: 1)
    }

    static func seconds(_ record: RunRecord) -> Double { Double(record.endTime - record.startTime) / 1e9 }

    // MARK: Launch

    func testTheLaunchWatchdogKillsAnAppStillInDidFinishLaunchingAtFiveSeconds() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock, onLaunch: { app in
            app.emit(.hello(Hello(pid: app.pid, mainThreadID: app.pid, workload: "simulated", counters: [])))
            app.runHandler("didFinishLaunching", taking: 3600)
        })
        let record = try Self.runner(launcher).run(Self.plan([.launch, .wait(seconds: 1), .terminate]))
        XCTAssertEqual(record.outcome, .killedWatchdog)
        let detail = try XCTUnwrap(record.outcomeDetail)
        XCTAssertTrue(detail.contains("launch watchdog") && detail.contains("still in didFinishLaunching"), detail)
        XCTAssertEqual(record.exitStatus?.signal, SIGKILL)
        XCTAssertEqual(Self.seconds(record), Thresholds.launchWatchdogSeconds, "killed at the watchdog, not before or after")
        XCTAssertEqual(launcher.launched.first?.signals.map(\.signal).contains(SIGKILL), true)
    }

    func testAnAppThatAnswersJustBeforeTheLaunchWatchdogIsNotKilled() throws {
        let clock = ManualClock()
        let budget = Thresholds.launchWatchdogSeconds
        let launcher = SimulatedAppLauncher(clock: clock) { app, message in
            if message.command == .ping { app.later(budget - 0.1) { app.acknowledge(message) } } else { app.behaveNormally(message) }
        }
        let record = try Self.runner(launcher).run(Self.plan([.launch, .terminate]))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertEqual(record.exitStatus?.code, 0)
    }

    /// A relaunch is a new process in the same run, under the launch watchdog again.
    func testARelaunchedAppThatNeverAnswersIsKilledByTheLaunchWatchdog() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock) { app, message in
            // The second process (the launcher numbers pids down from Int32.max) never gets to its first event.
            if message.command == .ping && app.pid != pid_t(Int32.max) { return }
            app.behaveNormally(message)
        }
        let record = try Self.runner(launcher).run(Self.plan([.launch, .home, .kill, .wait(seconds: 3), .relaunch, .terminate]))
        XCTAssertEqual(launcher.launched.count, 2)
        XCTAssertEqual(record.processes?.count, 2)
        XCTAssertEqual(record.processes?.first?.exitStatus?.signal, SIGKILL, "the scenario's kill")
        XCTAssertEqual(record.outcome, .killedWatchdog)
        XCTAssertTrue(record.outcomeDetail?.contains("launch watchdog") ?? false, record.outcomeDetail ?? "")
        let second = try XCTUnwrap(launcher.launched.last)
        let firstExit = try XCTUnwrap(record.processes?.first?.endTime)
        XCTAssertEqual(Double(second.spawnTime - firstExit) / 1e9, 3, "relaunched after the 3 s wait")
        XCTAssertEqual(Double(record.endTime - second.spawnTime) / 1e9, Thresholds.launchWatchdogSeconds)
    }

    /// An input the app never answers is a problem of that step at the input timeout; the run goes on.
    func testAnInputTheAppNeverAnswersIsAProblemAtTheInputTimeoutAndTheRunGoesOn() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock) { app, message in
            if message.command == .input { return }
            app.behaveNormally(message)
        }
        let record = try Self.runner(launcher) { $0.inputTimeout = 10 }.run(Self.plan([.launch, .input(kind: "tap"), .terminate]))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let input = try XCTUnwrap(record.steps.first { $0.step == .input(kind: "tap") })
        XCTAssertEqual(input.problem, "input not handled in time")
        XCTAssertEqual(Double(input.end - input.start) / 1e9, 10)
    }

    /// A wait is its seconds on the clock, sampled at its start and its end.
    func testAWaitStepLastsItsSecondsAndIsSampledAtBothEnds() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock)
        let record = try Self.runner(launcher).run(Self.plan([.launch, .wait(seconds: 2.5), .terminate]))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let wait = try XCTUnwrap(record.steps.first { $0.step == .wait(seconds: 2.5) })
        XCTAssertEqual(Double(wait.end - wait.start) / 1e9, 2.5)
        XCTAssertEqual(wait.sampleAtStart?.time, wait.start, "a quiet app is settled at once")
        XCTAssertEqual(wait.sampleAtEnd?.time, wait.end)
        XCTAssertNil(wait.problem)
    }

    // MARK: Terminate

    func testTheTerminateWatchdogKillsAnAppStillInWillTerminateAfterFiveSeconds() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock) { app, message in
            if message.command == .terminate { app.runHandler("willTerminate", taking: 3600) } else { app.behaveNormally(message) }
        }
        let record = try Self.runner(launcher).run(Self.plan([.launch, .wait(seconds: 2), .terminate]))
        XCTAssertEqual(record.outcome, .killedWatchdog)
        let detail = try XCTUnwrap(record.outcomeDetail)
        XCTAssertTrue(detail.contains("terminate watchdog") && detail.contains("still in willTerminate"), detail)
        let app = try XCTUnwrap(launcher.launched.first)
        let sent = try XCTUnwrap(app.firstTime(of: .terminate))
        let kill = try XCTUnwrap(app.signals.first { $0.signal == SIGKILL }?.time)
        XCTAssertEqual(Double(kill - sent) / 1e9, 5, "the 5 s terminate budget, from the command")
    }

    /// A scenario without `terminate` closes the control pipe and gives the app the same budget.
    func testAnAppThatIgnoresTheEndOfItsControlPipeTimesOutAfterTheTerminateBudget() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock, onEndOfControl: { _ in })
        let record = try Self.runner(launcher) { $0.terminateWatchdog = 5 }.run(Self.plan([.launch, .wait(seconds: 1)]))
        XCTAssertEqual(record.outcome, .timedOut)
        XCTAssertTrue(record.outcomeDetail?.contains("did not exit within 5 s after the scenario ended") ?? false, record.outcomeDetail ?? "")
        XCTAssertEqual(Self.seconds(record), 6, "1 s of wait, then the 5 s budget")
    }

    // MARK: Background

    func testTheBackgroundWatchdogKillsAnAppStillInDidEnterBackgroundAfterFiveSeconds() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock) { app, message in
            if message.command == .enterBackground {
                app.transition(to: .background)
                app.runHandler("didEnterBackground", taking: 3600)
            } else {
                app.behaveNormally(message)
            }
        }
        let record = try Self.runner(launcher).run(Self.plan([.launch, .home, .foreground, .terminate]))
        XCTAssertEqual(record.outcome, .killedWatchdog)
        let detail = try XCTUnwrap(record.outcomeDetail)
        XCTAssertTrue(detail.contains("background watchdog") && detail.contains("still in didEnterBackground") && detail.contains("5 s"), detail)
        let app = try XCTUnwrap(launcher.launched.first)
        let sent = try XCTUnwrap(app.firstTime(of: .enterBackground))
        XCTAssertEqual(Double(record.endTime - sent) / 1e9, 5)
        XCTAssertNil(app.firstTime(of: .enterForeground), "the scenario stopped at the kill")
    }

    /// iOS calls expiration handlers shortly before background time runs out, and ends an app
    /// whose task is still open when it has.
    func testABackgroundTaskStillOpenWhenItsTimeRunsOutIsWarnedFiveSecondsBeforeAndKilled() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock) { app, message in
            switch message.command {
            case .enterBackground:
                app.beginBackgroundTask("upload")
                app.behaveNormally(message)
            case .expireBackgroundTasks:
                // Its expiration handler is called, and does not end the task.
                app.emit(.backgroundTask(BackgroundTaskEvent(id: 1, name: "upload", phase: .expirationHandlerCalled)))
            default:
                app.behaveNormally(message)
            }
        }
        let record = try Self.runner(launcher).run(Self.plan([.launch, .home, .foreground, .terminate], backgroundTimeBudget: 30))
        XCTAssertEqual(record.outcome, .killedWatchdog)
        let detail = try XCTUnwrap(record.outcomeDetail)
        XCTAssertTrue(detail.contains("background task watchdog") && detail.contains("'upload'") && detail.contains("expiration handler had been called"), detail)
        let app = try XCTUnwrap(launcher.launched.first)
        let entered = try XCTUnwrap(app.firstTime(of: .enterBackground))
        let expired = try XCTUnwrap(app.firstTime(of: .expireBackgroundTasks), "the expiration handlers were never called")
        XCTAssertEqual(Double(expired - entered) / 1e9, 25, "5 s before the 30 s run out")
        XCTAssertEqual(Double(record.endTime - entered) / 1e9, 30)
        XCTAssertNil(record.suspensions, "a killed app is not suspended")
    }

    func testAnAppThatEndsItsTaskWhenWarnedIsSuspendedNotKilled() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock) { app, message in
            if message.command == .enterBackground { app.beginBackgroundTask("upload") }
            app.behaveNormally(message)
        }
        let record = try Self.runner(launcher).run(Self.plan([.launch, .home, .foreground, .terminate], backgroundTimeBudget: 8))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let app = try XCTUnwrap(launcher.launched.first)
        let entered = try XCTUnwrap(app.firstTime(of: .enterBackground))
        let expired = try XCTUnwrap(app.firstTime(of: .expireBackgroundTasks))
        XCTAssertEqual(Double(expired - entered) / 1e9, 6, "a budget under 20 s is warned at three quarters")
        XCTAssertEqual(record.suspensions?.count, 1)
    }

    // MARK: Suspension

    func testAnAppIsStoppedAfterTheBackgroundGraceAndANotificationWaitsForItsResumption() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock)
        let record = try Self.runner(launcher) { $0.backgroundGrace = 0.5 }
            .run(Self.plan([.launch, .home, .wait(seconds: 2), .notify(name: "significant-time-change"), .foreground, .terminate]))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let app = try XCTUnwrap(launcher.launched.first)
        let entered = try XCTUnwrap(app.firstTime(of: .enterBackground))
        let stop = try XCTUnwrap(app.signals.first { $0.signal == SIGSTOP }, "never suspended")
        XCTAssertEqual(Double(stop.time - entered) / 1e9, 0.5, "stopped once the 0.5 s grace is over")
        let resume = try XCTUnwrap(app.signals.first { $0.signal == SIGCONT })
        // The stop is confirmed by a second read of every thread 1 ms after the first
        // (`ProcSampler.stoppedSample`): the suspension starts there, and the wait after it.
        XCTAssertEqual(Double(resume.time - stop.time) / 1e9, 2.001, accuracy: 1e-9, "stopped through the 2 s wait")
        let suspension = try XCTUnwrap(record.suspensions?.first)
        XCTAssertEqual(record.suspensions?.count, 1)
        XCTAssertEqual(suspension.start, stop.time + 1_000_000)
        XCTAssertEqual(suspension.end, resume.time)
        XCTAssertEqual(suspension.endedBy, "foreground")
        // Queued by the kernel while stopped: handled only once continued.
        let handled = try XCTUnwrap(RunAnalysis(record).handlers.first { $0.name == "notification:significant-time-change" })
        XCTAssertGreaterThanOrEqual(handled.start, resume.time)
        let states = RunAnalysis(record).stateSpans.map(\.state)
        XCTAssertTrue(states.contains(.suspended), "\(states)")
    }

    // MARK: Hangs

    /// The hang watcher runs on a thread of its own: the test moves the clock and waits for the
    /// signal it expects (a semaphore, with a generous real-time bound in case it never comes).
    func testTheHangWatcherSignalsTheMainThreadOnceAHandlerOutlivesTheHangLimit() throws {
        let clock = ManualClock()
        let reader = EventStreamReader(fedOn: clock)
        let app = SimulatedApp(pid: Int32.max, clock: clock, events: reader, answer: nil, onEndOfControl: nil)
        let watcher = HangWatcher(reader: reader, process: app, limitMilliseconds: 250)
        defer { watcher.stop() }
        app.runHandler("input:hang", taking: 1)
        clock.advance(by: 0.249)
        XCTAssertEqual(app.signals.count, 0, "signalled before the 250 ms limit")
        clock.advance(by: 0.002)
        XCTAssertEqual(app.signalled.wait(timeout: .now() + 10), .success, "no signal after the 250 ms limit")
        let signal = try XCTUnwrap(app.signals.first)
        XCTAssertTrue(signal.mainThreadOnly)
        XCTAssertEqual(signal.signal, frugal_hang_signal())
        XCTAssertEqual(clock.seconds(since: app.spawnTime), 0.251, accuracy: 1e-9)
        // One stack per hang: the clock moving on does not signal the same handler again. What
        // must not happen has no event to wait for: 50 ms is ample for the woken watcher to act.
        clock.advance(by: 0.5)
        XCTAssertEqual(app.signalled.wait(timeout: .now() + 0.05), .timedOut)
        XCTAssertEqual(app.signals.count, 1)
    }
}
