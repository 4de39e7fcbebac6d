import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// Every step kind the vocabulary declares (`StepKind.all`, FrugalCore) has a performer in the
/// harness (`StepPerformer.all`), which agrees with the kind on whether a black-box program can
/// take it; a kind without one is refused before a run starts. And the `mark` step, added through
/// that path, runs for an app and for a program.
final class StepPerformerTests: XCTestCase {
    func testEveryKindHasOnePerformerThatAgreesWithItsDeclaration() {
        XCTAssertEqual(StepPerformer.all.count, StepKind.all.count, "one performer per kind")
        XCTAssertEqual(Set(StepPerformer.all.map(\.kind.name)).count, StepPerformer.all.count, "a kind with two performers")
        for kind in StepKind.all {
            guard let performer = StepPerformer.of(kind) else {
                XCTFail("\(kind.name) has no StepPerformer: add one in FrugalHarness/Steps")
                continue
            }
            XCTAssertEqual(performer.program != nil, kind.appliesToBlackBox,
                           "\(kind.name): a program performer exactly when the kind applies to a black box")
        }
    }

    /// A kind this build cannot carry out (a newer frugal.yml, a kind declared without a
    /// performer) stops the run before anything starts, naming it.
    func testAScenarioWithAKindWithoutAPerformerIsRefusedBeforeItStarts() throws {
        let orphan = StepKind(name: "orphan", summary: "a kind with no performer", form: .none, timedBy: nil)
        let step = try XCTUnwrap(orphan.step(.none))
        let scenario = Scenario(name: "orphaned", summary: "test", steps: [.launch, step, .terminate])
        XCTAssertEqual(StepPerformer.missing(in: scenario), ["orphan"])
        XCTAssertEqual(StepPerformer.missing(in: ScenarioCatalogue.all[0]), [])
        let launcher = SimulatedAppLauncher(clock: ManualClock())
        XCTAssertThrowsError(try WatchdogTests.runner(launcher).run(RunPlan(target: .builtIn(name: "simulated"), scenario: scenario, repetition: 1))) { error in
            XCTAssertTrue("\(error)".contains("cannot carry out its orphan steps"), "\(error)")
        }
        XCTAssertTrue(launcher.launched.isEmpty, "refused before a process was started")
    }

    /// An app's marks are recorded where the scenario reached them, between the steps around
    /// them, without a problem and without time of their own.
    func testMarksAreRecordedInOrderForAnApp() throws {
        let clock = ManualClock()
        let launcher = SimulatedAppLauncher(clock: clock)
        let steps: [ScenarioStep] = [.launch, .mark("idle"), .wait(seconds: 2), .mark("leaving"), .terminate]
        let record = try WatchdogTests.runner(launcher).run(WatchdogTests.plan(steps))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertEqual(record.steps.map(\.step), steps)
        let marks = record.steps.filter { $0.step.kind == .mark }
        XCTAssertEqual(marks.map(\.step.argument), [.text("idle"), .text("leaving")])
        for mark in marks {
            XCTAssertNil(mark.problem)
            XCTAssertEqual(mark.end, mark.start, "a mark takes no time on the manual clock")
        }
        let wait = try XCTUnwrap(record.steps.first { $0.step.kind == .wait })
        XCTAssertLessThanOrEqual(marks[0].end, wait.start)
        XCTAssertGreaterThanOrEqual(marks[1].start, wait.end)
    }

    /// A black-box program takes a mark too (only the harness takes part).
    func testAProgramTakesAMark() throws {
        let scenario = Scenario(name: "marked", summary: "test", steps: [.launch, .mark("started"), .wait(seconds: 0.2), .terminate])
        let record = try ScenarioRunnerTests.runner()
            .run(RunPlan(target: .command(["sh", "-c", "while :; do sleep 0.05; done"]), scenario: scenario, repetition: 1))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let mark = try XCTUnwrap(record.steps.first { $0.step == .mark("started") })
        XCTAssertNil(mark.problem)
    }
}
