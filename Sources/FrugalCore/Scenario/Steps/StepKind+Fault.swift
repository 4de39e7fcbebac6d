extension StepKind {
    /// `fault: KIND[:N]`: inject a fault into the proxy's next connection(s).
    public static let fault = StepKind(
        name: "fault", summary: "inject a fault (reset, reset-response, stall, refuse; KIND:N for N connections) into the proxy's next connection",
        form: .text, timedBy: nil, label: .argument(prefix: "fault "),
        app: { step, harness in harness.injectFault(step.text) },
        program: .same)
}

extension ScenarioStep {
    /// Inject a fault into the proxy's next connection: `reset` (RST after 256 bytes up),
    /// `reset-response` (RST after 256 bytes down), `stall` (stop forwarding after 256 bytes up),
    /// `refuse`; `KIND:N` for the next N connections.
    public static func fault(kind: String) -> ScenarioStep { ScenarioStep(.fault, .text(kind)) }
}
