import FrugalCore

/// A test double of the harness's actions (`StepHarness`): it does nothing and records each call
/// as a short line (`idle(2.5)`, `sendAppHome`), so a test reads what a step kind asks of the
/// harness without a run. `goesOnFor` is how many actions it lets through before ``canGoOn``
/// turns false, as a real run's does after a watchdog kill or the workload's exit.
final class RecordingStepHarness: StepHarness {
    private(set) var calls: [String] = []
    private let goesOnFor: Int

    init(goesOnFor: Int = .max) { self.goesOnFor = goesOnFor }

    var canGoOn: Bool { calls.count < goesOnFor }

    func record(_ step: ScenarioStep, problem: String?) { calls.append("record(\(step.description))" + (problem.map { ": " + $0 } ?? "")) }
    func idle(seconds: Double) { calls.append("idle(\(seconds))") }
    func setNetwork(profile: String) { calls.append("setNetwork(\(profile))") }
    func injectFault(_ kind: String) { calls.append("injectFault(\(kind))") }
    func limitMemory(to bytes: Int) { calls.append("limitMemory(\(bytes))") }
    func startBalloon(bytes: Int) { calls.append("startBalloon(\(bytes))") }

    func launchApp() { calls.append("launchApp") }
    func deliverInput(_ kind: String) { calls.append("deliverInput(\(kind))") }
    func terminateApp() { calls.append("terminateApp") }
    func interruptApp(seconds: Double) { calls.append("interruptApp(\(seconds))") }
    func sendAppHome() { calls.append("sendAppHome") }
    func bringAppToForeground() { calls.append("bringAppToForeground") }
    func killApp() { calls.append("killApp") }
    func relaunchApp() { calls.append("relaunchApp") }
    func notifyApp(_ name: String) { calls.append("notifyApp(\(name))") }
    func warnApp(_ level: MemoryWarningLevel) { calls.append("warnApp(\(level.rawValue))") }

    func markProgramLaunched() { calls.append("markProgramLaunched") }
    func signalInput(_ kind: String) { calls.append("signalInput(\(kind))") }
    func terminateProgram() { calls.append("terminateProgram") }
    func suspendProgram() { calls.append("suspendProgram") }
    func resumeProgram() { calls.append("resumeProgram") }
    func killProgram() { calls.append("killProgram") }
    func relaunchProgram() { calls.append("relaunchProgram") }
    func signalMemoryWarning(_ level: MemoryWarningLevel) { calls.append("signalMemoryWarning(\(level.rawValue))") }
}

extension StepKind {
    /// What a step of this kind asks of the harness for an app, and for a program (nil: not
    /// applicable to one), as the double records it.
    func calls(_ step: ScenarioStep, goesOnFor: Int = .max) -> (app: [String], program: [String]?) {
        let app = RecordingStepHarness(goesOnFor: goesOnFor)
        runForApp(step, app)
        return (app.calls, runForProgram.map { run in
            let program = RecordingStepHarness(goesOnFor: goesOnFor)
            run(step, program)
            return program.calls
        })
    }
}
