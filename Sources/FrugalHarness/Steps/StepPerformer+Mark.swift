import FrugalCore

/// `mark: NAME` (`StepKind+Mark.swift`): nothing is delivered and no time passes; the step is
/// recorded at the moment the scenario reaches it, so the timeline and the Perfetto trace show
/// the name there. The same for an app and a program: only the harness takes part.
extension StepPerformer {
    static let mark = StepPerformer(.mark, both: { session, step, index, start in
        session.record(step, index: index, start: start)
    })
}
