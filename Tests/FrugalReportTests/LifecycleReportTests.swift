import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore
import FrugalHarness

/// A report of real lifecycle runs (a hang with its stack, suspension, kill and relaunch) is
/// valid against the schema, and its timeline draws every state and the hang.
final class LifecycleReportTests: XCTestCase {
    func testLifecycleRunsValidateAndDrawTheirStatesAndHangs() throws {
        guard let host = WorkloadHostLocator.locate() else { throw XCTSkip("frugal-workload-host is not built") }
        let runner = ScenarioRunner(options: HarnessOptions(workloadHost: host))
        let hang = Scenario(name: "hang", summary: "", steps: [.launch, .input(kind: "hang"), .wait(seconds: 0.2), .terminate])
        // Every state, each for a moment: home ends with the app suspended (the background grace,
        // then SIGSTOP), the kill leaves it not running until the relaunch. What is checked is
        // the report's shape and a band per state, so save-state's edits and its 1.5 s of waits
        // (about 1.5 s of the test) are left out.
        let lifecycle = Scenario(name: "lifecycle", summary: "", steps: [.launch, .home, .wait(seconds: 0.2), .kill, .relaunch, .terminate])
        let records = [try runner.run(RunPlan(target: .builtIn(name: "fixture.main-hang"), scenario: hang, repetition: 1)),
                       try runner.run(RunPlan(target: .builtIn(name: "notes.saves-on-background"), scenario: lifecycle, repetition: 1))]
        let report = ReportBuilder.build(records: records, tool: ToolInfo(version: "test"), generatedAt: "2026-11-21T00:00:00Z",
                                         environment: ReportTests.environment)
        let data = try ReportJSON.encode(report)
        let errors = try ReportTests.validator().validate(data)
        XCTAssertEqual(errors, [], errors.joined(separator: "\n"))
        XCTAssertNotNil(report.runs[0].timeline.hangs?.first?.stack)
        let hangSVG = TimelineSVG.render(report.runs[0].timeline)
        XCTAssertTrue(hangSVG.contains("class=\"hang\"") && hangSVG.contains("blockMainThread"))
        let lifeSVG = TimelineSVG.render(report.runs[1].timeline)
        for state in AppState.allCases {
            XCTAssertTrue(lifeSVG.contains(">\(state.rawValue) "), "a band of \(state.rawValue)")
        }
    }
}
