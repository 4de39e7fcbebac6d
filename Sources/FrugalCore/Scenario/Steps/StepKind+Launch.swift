extension StepKind {
    /// `launch`: start the app (exec); the launch watchdog runs until it handles its first event.
    public static let launch = StepKind(
        name: "launch", summary: "start the app; the launch watchdog runs until it handles its first event",
        form: .none, timedBy: "launch time (exec to the first event handled)", drawnAsLifecycle: true,
        app: { _, harness in harness.launchApp() },
        program: .runs { _, harness in harness.markProgramLaunched() })
}

extension ScenarioStep {
    /// Start the app (exec); the launch watchdog runs until it handles its first event.
    public static let launch = ScenarioStep(StepKind.launch, .none)
}
