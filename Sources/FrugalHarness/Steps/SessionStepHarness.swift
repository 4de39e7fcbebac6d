import FrugalCore

/// The harness's actions for one step of a real run (``FrugalCore/StepHarness``), routed to the
/// session's area steps: `SkeletonSteps`, `LifecycleSteps`, `MemorySteps`, `NetworkSteps`, and
/// `ProgramSteps` for a black-box program. It owns nothing: the session and the step being run
/// (its index, its start). `RunSession.perform` makes one per step and hands it to the kind's
/// `runForApp` or `runForProgram`, so carrying a step out is the kind's declaration, not a
/// switch or a list here.
final class SessionStepHarness: StepHarness {
    private let session: RunSession
    private let index: Int
    /// The step's start (the exec for step 0), for its first action; nil once that has been taken.
    private var pendingStart: UInt64?

    init(session: RunSession, index: Int, start: UInt64) {
        self.session = session
        self.index = index
        pendingStart = start
    }

    /// When the action being called starts: the step's own start for its first action (so a
    /// kind of one action runs exactly as it always did), now for each later one, once the
    /// resource watch has caught up, as `RunSession.perform` lets it before each step (so a later
    /// action's reads are its own, as they would be as a step of their own).
    private func start() -> UInt64 {
        if let start = pendingStart {
            pendingStart = nil
            return start
        }
        session.watches.settle()
        return session.clock.now()
    }

    /// As the runner asks between steps (`ScenarioRunner`): not interrupted and able to go on.
    var canGoOn: Bool { !session.checkInterruption() && session.canGoOn }

    func record(_ step: ScenarioStep, problem: String?) { session.record(step, index: index, start: start(), problem: problem) }
    func idle(seconds: Double) { SkeletonSteps.wait(session, seconds, index: index, start: start()) }
    func setNetwork(profile: String) { NetworkSteps.network(session, profile, index: index, start: start()) }
    func injectFault(_ kind: String) { NetworkSteps.fault(session, kind, index: index, start: start()) }
    func limitMemory(to bytes: Int) { MemorySteps.pressure(session, limit: bytes, index: index, start: start()) }
    func startBalloon(bytes: Int) { MemorySteps.balloon(session, bytes: bytes, index: index, start: start()) }

    func launchApp() { SkeletonSteps.launch(session, index: index, start: start()) }
    func deliverInput(_ kind: String) { SkeletonSteps.input(session, kind, index: index, start: start()) }
    func terminateApp() { SkeletonSteps.terminate(session, index: index, start: start()) }
    func interruptApp(seconds: Double) { LifecycleSteps.interrupt(session, seconds, index: index, start: start()) }
    func sendAppHome() { LifecycleSteps.home(session, index: index, start: start()) }
    func bringAppToForeground() { LifecycleSteps.foreground(session, index: index, start: start()) }
    func killApp() { LifecycleSteps.kill(session, index: index, start: start()) }
    func relaunchApp() { LifecycleSteps.relaunch(session, index: index, start: start()) }
    func notifyApp(_ name: String) { LifecycleSteps.notify(session, name, index: index, start: start()) }
    func warnApp(_ level: MemoryWarningLevel) { MemorySteps.memoryWarning(session, level, index: index, start: start()) }

    func markProgramLaunched() { ProgramSteps.launch(session, index: index, start: start()) }
    func signalInput(_ kind: String) { ProgramSteps.input(session, kind, index: index, start: start()) }
    func terminateProgram() { ProgramSteps.terminate(session, index: index, start: start()) }
    func suspendProgram() { ProgramSteps.home(session, index: index, start: start()) }
    func resumeProgram() { ProgramSteps.foreground(session, index: index, start: start()) }
    func killProgram() { ProgramSteps.kill(session, index: index, start: start()) }
    func relaunchProgram() { ProgramSteps.relaunch(session, index: index, start: start()) }
    func signalMemoryWarning(_ level: MemoryWarningLevel) { ProgramSteps.memoryWarning(session, level, index: index, start: start()) }
}
