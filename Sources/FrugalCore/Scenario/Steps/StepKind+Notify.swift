extension StepKind {
    /// `notify: NAME`: a system notification, delivered at once or queued while suspended.
    /// Not timed: a notification's effects are judged on counts (wakeups, what is delivered
    /// while suspended).
    public static let notify = StepKind(
        name: "notify", summary: "a system notification: delivered to a running app, queued for a suspended one",
        form: .text, timedBy: nil, label: .argument(prefix: ""), appliesToBlackBox: false,
        make: { if case .text(let name) = $0 { return .notify(name: name) } else { return nil } })
}
