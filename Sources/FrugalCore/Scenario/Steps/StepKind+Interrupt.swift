extension StepKind {
    /// `interrupt` or `interrupt: SECONDS`: active → inactive → active, as an alert or a call.
    /// Not timed: the inactive phase is judged as a wait is, on its counts.
    public static let interrupt = StepKind(
        name: "interrupt", summary: "an interruption (an alert, a call): active, inactive for some seconds, active again",
        form: .seconds, bareArgument: .seconds(ScenarioStep.defaultInterruptSeconds),
        timedBy: nil, label: .argument(prefix: "interrupt "),
        app: { step, harness in harness.interruptApp(seconds: step.seconds) },
        program: .notApplicable)
}

extension ScenarioStep {
    /// An interruption (an alert, a call) lasting `seconds`: active → inactive → active, with
    /// `willResignActive` and `didBecomeActive`. The inactive phase is sampled at both ends.
    public static func interrupt(seconds: Double) -> ScenarioStep { ScenarioStep(.interrupt, .seconds(seconds)) }
}
