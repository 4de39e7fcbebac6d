import FrugalCore

/// The performers of the vocabulary's first fifteen kinds: each routes to the `RunSession` method
/// of its area (`RunSession+Steps`, `+Lifecycle`, `+Memory`, `+Network`, `+Program`). A new kind
/// gets its own file (`StepPerformer+Mark.swift`).
extension StepPerformer {
    static let builtIn: [StepPerformer] = [
        StepPerformer(.launch, app: { session, _, index, start in session.launch(index: index, start: start) },
                      program: { session, _, index, start in session.programLaunch(index: index, start: start) }),
        StepPerformer(.wait, both: { session, step, index, start in session.wait(step.seconds, index: index, start: start) }),
        StepPerformer(.input, app: { session, step, index, start in session.input(step.text, index: index, start: start) },
                      program: { session, step, index, start in session.programInput(step.text, index: index, start: start) }),
        StepPerformer(.terminate, app: { session, _, index, start in session.terminate(index: index, start: start) },
                      program: { session, _, index, start in session.programTerminate(index: index, start: start) }),
        StepPerformer(.interrupt, app: { session, step, index, start in session.interrupt(step.seconds, index: index, start: start) },
                      program: nil),
        StepPerformer(.home, app: { session, _, index, start in session.home(index: index, start: start) },
                      program: { session, _, index, start in session.programHome(index: index, start: start) }),
        StepPerformer(.foreground, app: { session, _, index, start in session.foreground(index: index, start: start) },
                      program: { session, _, index, start in session.programForeground(index: index, start: start) }),
        StepPerformer(.kill, app: { session, _, index, start in session.killStep(index: index, start: start) },
                      program: { session, _, index, start in session.programKill(index: index, start: start) }),
        StepPerformer(.relaunch, app: { session, _, index, start in session.relaunch(index: index, start: start) },
                      program: { session, _, index, start in session.programRelaunch(index: index, start: start) }),
        StepPerformer(.notify, app: { session, step, index, start in session.notify(step.text, index: index, start: start) },
                      program: nil),
        StepPerformer(.network, both: { session, step, index, start in session.network(step.text, index: index, start: start) }),
        StepPerformer(.fault, both: { session, step, index, start in session.fault(step.text, index: index, start: start) }),
        StepPerformer(.memoryWarning, app: { session, step, index, start in session.memoryWarning(step.level, index: index, start: start) },
                      program: { session, step, index, start in session.programMemoryWarning(step.level, index: index, start: start) }),
        StepPerformer(.pressure, both: { session, step, index, start in session.pressure(limit: step.bytes, index: index, start: start) }),
        StepPerformer(.balloon, both: { session, step, index, start in session.balloon(bytes: step.bytes, index: index, start: start) }),
    ]
}
