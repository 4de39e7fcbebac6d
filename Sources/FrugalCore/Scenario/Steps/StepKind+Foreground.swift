extension StepKind {
    /// `foreground`: the user returns; the suspended process is continued and made active.
    public static let foreground = StepKind(
        name: "foreground", summary: "the user returns: the process is continued, then willEnterForeground and didBecomeActive",
        form: .none, timedBy: "resume time (to the end of didBecomeActive)", drawnAsLifecycle: true,
        app: { _, harness in harness.bringAppToForeground() },
        program: .runs { _, harness in harness.resumeProgram() })
}

extension ScenarioStep {
    /// The user returns: the suspended process is continued (SIGCONT), `willEnterForeground`,
    /// queued notifications, then `didBecomeActive`.
    public static let foreground = ScenarioStep(StepKind.foreground, .none)
}
