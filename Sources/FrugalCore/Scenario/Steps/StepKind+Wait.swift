extension StepKind {
    /// `wait: SECONDS`: let time pass with nothing delivered, an idle phase judged on its counts.
    public static let wait = StepKind(
        name: "wait", summary: "let time pass with nothing delivered: an idle phase",
        form: .seconds, timedBy: nil, label: .hidden,
        make: { if case .seconds(let seconds) = $0 { return .wait(seconds: seconds) } else { return nil } })
}
