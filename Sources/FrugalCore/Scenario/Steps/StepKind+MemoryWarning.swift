extension StepKind {
    /// `memoryWarning: LEVEL`: deliver a simulated, iOS-style low-memory warning.
    /// Not timed: judged on memory freed; the run has the machine to itself anyway.
    public static let memoryWarning = StepKind(
        name: "memoryWarning", summary: "deliver a low-memory warning (warning, critical or normal) to the app",
        form: .level, timedBy: nil, needsMachine: true, label: .argument(prefix: "warning "),
        app: { step, harness in harness.warnApp(step.level) },
        program: .runs { step, harness in harness.signalMemoryWarning(step.level) })
}

extension ScenarioStep {
    /// Deliver a low-memory warning of `level` to the app (the simulated, iOS-style signal).
    public static func memoryWarning(level: MemoryWarningLevel) -> ScenarioStep { ScenarioStep(.memoryWarning, .level(level)) }
}
