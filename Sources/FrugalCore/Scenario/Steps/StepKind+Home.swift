extension StepKind {
    /// `home`: the user leaves the app; after its background time and grace it is suspended.
    /// Not timed: the step waits out the background time, judged on counts (CPU in the
    /// background, lost changes, a kill when the time runs out); its one timed part,
    /// `didEnterBackground` (tens of ms against `lifecycle.background-transition`'s 100 ms good,
    /// 1 s poor), has the margin to share the machine.
    public static let home = StepKind(
        name: "home", summary: "the user leaves the app: inactive, background, then suspended for real",
        form: .none, timedBy: nil, drawnAsLifecycle: true,
        app: { _, harness in harness.sendAppHome() },
        program: .runs { _, harness in harness.suspendProgram() })
}

extension ScenarioStep {
    /// The user leaves the app: → inactive → background (`didEnterBackground`, 5 s watchdog).
    /// Once background tasks have ended (or the background time ran out) and the background grace
    /// has passed, the harness suspends the process for real (SIGSTOP of its process group).
    public static let home = ScenarioStep(StepKind.home, .none)
}
