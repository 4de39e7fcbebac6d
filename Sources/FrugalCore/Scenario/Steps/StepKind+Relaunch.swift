extension StepKind {
    /// `relaunch`: start the app again, a new process in the same run and sandbox.
    public static let relaunch = StepKind(
        name: "relaunch", summary: "start the app again: a new process in the same run and sandbox",
        form: .none, timedBy: "launch time of the new process", drawnAsLifecycle: true,
        app: { _, harness in harness.relaunchApp() },
        program: .runs { _, harness in harness.relaunchProgram() })
}

extension ScenarioStep {
    /// Start the app again: a new process in the same run and the same sandbox.
    public static let relaunch = ScenarioStep(StepKind.relaunch, .none)
}
