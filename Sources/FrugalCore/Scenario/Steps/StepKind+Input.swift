extension StepKind {
    /// `input: KIND`: deliver an input event to the main run loop and wait until it is handled.
    public static let input = StepKind(
        name: "input", summary: "deliver an input event of a kind to the main run loop and wait until it is handled",
        form: .text, timedBy: "input response time (send to the main thread's return to idle)",
        app: { step, harness in harness.deliverInput(step.text) },
        program: .runs { step, harness in harness.signalInput(step.text) })
}

extension ScenarioStep {
    /// Deliver an input event of `kind` to the main run loop and wait until it is handled.
    public static func input(kind: String) -> ScenarioStep { ScenarioStep(.input, .text(kind)) }
}
