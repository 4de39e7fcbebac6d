import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore
import FrugalHarness

/// A real run with warnings and real pressure: its report validates and draws the memory lane.
final class MemoryReportTests: XCTestCase {
    func testAReportWithWarningsAndKernelPressureValidatesAndDrawsTheMemoryLane() throws {
        guard let host = WorkloadHostLocator.locate() else { throw XCTSkip("frugal-workload-host is not built") }
        let runner = ScenarioRunner(options: HarnessOptions(workloadHost: host))
        let scenario = Scenario(name: "memory", summary: "", steps: [
            .launch, .input(kind: "fill"), .memoryWarning(level: .critical), .pressure(limitBytes: 16 << 20), .wait(seconds: 0.3), .terminate,
        ])
        let record = try runner.run(RunPlan(target: .builtIn(name: "fixture.purgeable"), scenario: scenario, repetition: 1))
        let report = ReportBuilder.build(records: [record], tool: ToolInfo(version: "test"), generatedAt: "2026-11-21T00:00:00Z",
                                         environment: ReportTests.environment)
        let data = try ReportJSON.encode(report)
        let errors = try ReportTests.validator().validate(data)
        XCTAssertEqual(errors, [], errors.joined(separator: "\n"))
        let timeline = try XCTUnwrap(report.runs.first?.timeline)
        XCTAssertFalse(try XCTUnwrap(timeline.memory).isEmpty, "the memory lane has samples")
        let marks = try XCTUnwrap(timeline.memoryMarks)
        XCTAssertTrue(marks.contains { $0.kind == "warning" && $0.level == "critical" && $0.detail == "scenario" })
        let svg = TimelineSVG.render(timeline)
        XCTAssertTrue(svg.contains(">memory<"), "a memory lane label")
        XCTAssertTrue(svg.contains("memory warning critical"))
        if record.memory?.cgroupController != nil {
            XCTAssertTrue(marks.contains { $0.kind == "kernel" }, "the kernel's pressure events are marked")
            XCTAssertTrue(svg.contains("kernel pressure"))
        }
    }
}
