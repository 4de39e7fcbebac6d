extension StepKind {
    /// `terminate`: ask the running app to terminate (`willTerminate`, then exit).
    public static let terminate = StepKind(
        name: "terminate", summary: "ask the running app to terminate (willTerminate, then exit)",
        form: .none, timedBy: "the willTerminate watchdog", drawnAsLifecycle: true,
        app: { _, harness in harness.terminateApp() },
        program: .runs { _, harness in harness.terminateProgram() })
}

extension ScenarioStep {
    /// Ask the running app to terminate (`willTerminate`, then exit).
    public static let terminate = ScenarioStep(StepKind.terminate, .none)
}
