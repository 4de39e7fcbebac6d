import FrugalCore

/// The performers of the vocabulary's first fifteen kinds: each routes to its area's steps
/// (`SkeletonSteps`, `LifecycleSteps`, `MemorySteps`, `NetworkSteps`, and `ProgramSteps` for a
/// black-box program). A new kind gets its own file (`StepPerformer+Mark.swift`).
extension StepPerformer {
    static let builtIn: [StepPerformer] = [
        StepPerformer(.launch, app: { session, _, index, start in SkeletonSteps.launch(session, index: index, start: start) },
                      program: { session, _, index, start in ProgramSteps.launch(session, index: index, start: start) }),
        StepPerformer(.wait, both: { session, step, index, start in SkeletonSteps.wait(session, step.seconds, index: index, start: start) }),
        StepPerformer(.input, app: { session, step, index, start in SkeletonSteps.input(session, step.text, index: index, start: start) },
                      program: { session, step, index, start in ProgramSteps.input(session, step.text, index: index, start: start) }),
        StepPerformer(.terminate, app: { session, _, index, start in SkeletonSteps.terminate(session, index: index, start: start) },
                      program: { session, _, index, start in ProgramSteps.terminate(session, index: index, start: start) }),
        StepPerformer(.interrupt, app: { session, step, index, start in LifecycleSteps.interrupt(session, step.seconds, index: index, start: start) },
                      program: nil),
        StepPerformer(.home, app: { session, _, index, start in LifecycleSteps.home(session, index: index, start: start) },
                      program: { session, _, index, start in ProgramSteps.home(session, index: index, start: start) }),
        StepPerformer(.foreground, app: { session, _, index, start in LifecycleSteps.foreground(session, index: index, start: start) },
                      program: { session, _, index, start in ProgramSteps.foreground(session, index: index, start: start) }),
        StepPerformer(.kill, app: { session, _, index, start in LifecycleSteps.kill(session, index: index, start: start) },
                      program: { session, _, index, start in ProgramSteps.kill(session, index: index, start: start) }),
        StepPerformer(.relaunch, app: { session, _, index, start in LifecycleSteps.relaunch(session, index: index, start: start) },
                      program: { session, _, index, start in ProgramSteps.relaunch(session, index: index, start: start) }),
        StepPerformer(.notify, app: { session, step, index, start in LifecycleSteps.notify(session, step.text, index: index, start: start) },
                      program: nil),
        StepPerformer(.network, both: { session, step, index, start in NetworkSteps.network(session, step.text, index: index, start: start) }),
        StepPerformer(.fault, both: { session, step, index, start in NetworkSteps.fault(session, step.text, index: index, start: start) }),
        StepPerformer(.memoryWarning, app: { session, step, index, start in MemorySteps.memoryWarning(session, step.level, index: index, start: start) },
                      program: { session, step, index, start in ProgramSteps.memoryWarning(session, step.level, index: index, start: start) }),
        StepPerformer(.pressure, both: { session, step, index, start in MemorySteps.pressure(session, limit: step.bytes, index: index, start: start) }),
        StepPerformer(.balloon, both: { session, step, index, start in MemorySteps.balloon(session, bytes: step.bytes, index: index, start: start) }),
    ]
}
