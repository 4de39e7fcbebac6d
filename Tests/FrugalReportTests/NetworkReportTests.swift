import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore
import FrugalHarness

/// A real run that went through the shaping proxy: its radio lane and network metrics in the
/// JSON (checked against the schema) and in the HTML timeline.
final class NetworkReportTests: XCTestCase {
    func testANetworkRunValidatesAndDrawsItsRadioLane() throws {
        guard let host = WorkloadHostLocator.locate() else { throw XCTSkip("frugal-workload-host is not built") }
        let scenario = Scenario(name: "short-api", summary: "", steps: [.launch, .input(kind: "load"), .wait(seconds: 0.5), .terminate])
        let record = try ScenarioRunner(options: HarnessOptions(workloadHost: host))
            .run(RunPlan(target: .builtIn(name: "api.compact"), scenario: scenario, repetition: 1))
        let report = ReportBuilder.build(records: [record], tool: ToolInfo(version: "test"), generatedAt: "2026-11-21T00:00:00Z",
                                         environment: ReportTests.environment)
        let data = try ReportJSON.encode(report)
        let errors = try ReportTests.validator().validate(data)
        XCTAssertEqual(errors, [], errors.joined(separator: "\n"))

        let run = try XCTUnwrap(report.runs.first)
        let lane = try XCTUnwrap(run.timeline.radio)
        XCTAssertEqual(lane.transfers.map(\.label), ["GET /random/80000"])
        XCTAssertEqual(lane.transfers.first?.outcome, .completed)
        XCTAssertTrue(lane.intervals.contains { $0.state == .promotion } && lane.intervals.contains { $0.state == .tail })
        XCTAssertGreaterThan(try XCTUnwrap(run.metrics[MetricName.networkBytesReceived]?.value), 80_000)
        XCTAssertEqual(run.metrics[MetricName.networkTransfers]?.value, 1)

        let html = HTMLReportRenderer.render(report)
        XCTAssertTrue(html.contains(">radio</text>"), "the radio lane is drawn")
        XCTAssertTrue(html.contains("GET /random/80000: completed"), "with the request on it")
        XCTAssertTrue(html.contains("RRC_CONNECTED tail (DRX)"))
    }
}
