import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// Step kinds run for real as their declarations say (`StepKind.runForApp`, `runForProgram`,
/// carried out by `SessionStepHarness`): the `mark` step for an app and for a program.
/// (What each kind asks of the harness, without a run: `StepHarnessTests`, FrugalCoreTests.)
/// Their runs are light (XCTestCase+Machine.swift): sleeping programs and `server.keeps-listening`
/// (a light workload in `frugal run`), judged on the steps' order and parts and on a suspension
/// of 1.5 s read with half a second to spare.
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
            .run(RunPlan(target: .command(["sh", "-c", "while :; do sleep 0.05; done"]), scenario: scenario, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let mark = try XCTUnwrap(record.steps.first { $0.step == .mark("started") })
        XCTAssertNil(mark.problem)
    }

    /// `background: SECONDS` through a real app: one step in the scenario, carried out as an app
    /// switch (home, the stay suspended, foreground), recorded as those three parts under its
    /// index, so the suspension and the resume are read as they are for the three written out.
    /// 1.5 s away; "more than 1 s suspended" leaves half a second for a loaded machine's home.
    func testABackgroundStepIsAnAppSwitchOfARealApp() throws {
        let scenario = Scenario(name: "app-switch", summary: "test",
                                steps: [.launch, .wait(seconds: 0.3), .background(seconds: 1.5), .wait(seconds: 0.3), .terminate])
        let record = try ScenarioRunnerTests.runner()
            .run(RunPlan(target: .builtIn(name: "server.keeps-listening"), scenario: scenario, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let parts = record.steps.filter { $0.index == 2 }
        XCTAssertEqual(parts.map(\.step), [.home, .wait(seconds: 1.5), .foreground])
        for part in parts { XCTAssertNil(part.problem, part.step.description) }
        for (earlier, later) in zip(parts, parts.dropFirst()) {
            XCTAssertLessThanOrEqual(earlier.end, later.start, "\(earlier.step.description) before \(later.step.description)")
        }
        XCTAssertEqual(record.steps.map(\.index), [0, 1, 2, 2, 2, 3, 4])
        let suspension = try XCTUnwrap(record.suspensions?.first)
        XCTAssertEqual(record.suspensions?.count, 1)
        XCTAssertEqual(suspension.endedBy, "foreground")
        let start = try XCTUnwrap(suspension.sampleAtStart), end = try XCTUnwrap(suspension.sampleAtEnd)
        XCTAssertGreaterThan(Double(end.time - start.time) / 1e9, 1.0, "suspended through the 1.5 s stay")
        let analysis = RunAnalysis(record)
        XCTAssertEqual(analysis.resumes.count, 1, "one return to the foreground, timed to didBecomeActive")
        XCTAssertTrue(Set(analysis.stateSpans.map(\.state)).isSuperset(of: [.background, .suspended, .active]))
    }

    /// A black-box program takes a background too: frozen (or stopped), the stay, thawed.
    func testAProgramTakesABackground() throws {
        let scenario = Scenario(name: "program-switch", summary: "test",
                                steps: [.launch, .background(seconds: 0.5), .wait(seconds: 0.2), .terminate])
        let record = try ScenarioRunnerTests.runner()
            .run(RunPlan(target: .command(["sh", "-c", "while :; do sleep 0.05; done"]), scenario: scenario, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let parts = record.steps.filter { $0.index == 1 }
        XCTAssertEqual(parts.map(\.step), [.home, .wait(seconds: 0.5), .foreground])
        for part in parts { XCTAssertNil(part.problem, part.step.description) }
        XCTAssertEqual(record.suspensions?.count, 1)
        XCTAssertEqual(record.suspensions?.first?.endedBy, "foreground")
    }
}
