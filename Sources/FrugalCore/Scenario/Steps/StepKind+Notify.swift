extension StepKind {
    /// `notify: NAME`: a system notification, delivered at once or queued while suspended.
    /// Not timed: a notification's effects are judged on counts (wakeups, what is delivered
    /// while suspended).
    public static let notify = StepKind(
        name: "notify", summary: "a system notification: delivered to a running app, queued for a suspended one",
        form: .text, timedBy: nil, label: .argument(prefix: ""),
        app: { step, harness in harness.notifyApp(step.text) },
        program: .notApplicable)
}

extension ScenarioStep {
    /// A system notification named `name` (`significant-time-change`, ...): delivered at once to
    /// a running app, queued (and coalesced) for a suspended one until it returns to the foreground.
    public static func notify(name: String) -> ScenarioStep { ScenarioStep(.notify, .text(name)) }
}
