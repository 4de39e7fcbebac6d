import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// Step kinds run for real as their declarations say (`StepKind.runForApp`, `runForProgram`,
/// carried out by `SessionStepHarness`): the `mark` step for an app and for a program.
/// (What each kind asks of the harness, without a run: `StepHarnessTests`, FrugalCoreTests.)
final class StepKindRunTests: XCTestCase {
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
