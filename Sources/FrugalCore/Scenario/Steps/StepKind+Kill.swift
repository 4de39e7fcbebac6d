extension StepKind {
    /// `kill`: the system kills the app (SIGKILL), as it kills suspended apps: no callback.
    public static let kill = StepKind(
        name: "kill", summary: "the system kills the app (SIGKILL) with no callback",
        form: .none, timedBy: nil, drawnAsLifecycle: true,
        app: { _, harness in harness.killApp() },
        program: .runs { _, harness in harness.killProgram() })
}

extension ScenarioStep {
    /// The system kills the app (SIGKILL), as it kills suspended apps: no callback.
    public static let kill = ScenarioStep(StepKind.kill, .none)
}
