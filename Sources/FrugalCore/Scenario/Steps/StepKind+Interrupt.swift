extension StepKind {
    /// `interrupt` or `interrupt: SECONDS`: active → inactive → active, as an alert or a call.
    public static let interrupt = StepKind(
        name: "interrupt", summary: "an interruption (an alert, a call): active, inactive for some seconds, active again",
        form: .seconds, bareArgument: .seconds(ScenarioStep.defaultInterruptSeconds),
        timedBy: "the main thread's time in willResignActive and didBecomeActive", label: .argument(prefix: "interrupt "), appliesToBlackBox: false,
        make: { if case .seconds(let seconds) = $0 { return .interrupt(seconds: seconds) } else { return nil } })
}
