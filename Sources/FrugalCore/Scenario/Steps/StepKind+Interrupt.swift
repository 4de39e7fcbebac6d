extension StepKind {
    /// `interrupt` or `interrupt: SECONDS`: active → inactive → active, as an alert or a call.
    /// Not timed: the inactive phase is judged as a wait is, on its counts.
    public static let interrupt = StepKind(
        name: "interrupt", summary: "an interruption (an alert, a call): active, inactive for some seconds, active again",
        form: .seconds, bareArgument: .seconds(ScenarioStep.defaultInterruptSeconds),
        timedBy: nil, label: .argument(prefix: "interrupt "), appliesToBlackBox: false,
        make: { if case .seconds(let seconds) = $0 { return .interrupt(seconds: seconds) } else { return nil } })
}
