extension StepKind {
    /// `fault: KIND[:N]`: inject a fault into the proxy's next connection(s).
    public static let fault = StepKind(
        name: "fault", summary: "inject a fault (reset, reset-response, stall, refuse; KIND:N for N connections) into the proxy's next connection",
        form: .text, timedBy: nil, label: .argument(prefix: "fault "),
        make: { if case .text(let kind) = $0 { return .fault(kind: kind) } else { return nil } })
}
