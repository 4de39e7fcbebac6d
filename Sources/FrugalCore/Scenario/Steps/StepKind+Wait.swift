extension StepKind {
    /// `wait: SECONDS`: let time pass with nothing delivered, an idle phase judged on its counts.
    public static let wait = StepKind(
        name: "wait", summary: "let time pass with nothing delivered: an idle phase",
        form: .seconds, timedBy: nil, label: .hidden,
        app: { step, harness in harness.idle(seconds: step.seconds) },
        program: .same)
}

extension ScenarioStep {
    /// Let time pass with nothing delivered: an idle phase of `seconds`.
    public static func wait(seconds: Double) -> ScenarioStep { ScenarioStep(.wait, .seconds(seconds)) }
}
