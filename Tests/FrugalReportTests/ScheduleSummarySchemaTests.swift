import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore

/// report.json's `schedule` (issue 28) is in the schema, with and without its ratios.
final class ScheduleSummarySchemaTests: XCTestCase {
    func testTheScheduleValidatesAndDecodes() throws {
        let record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: 0, endTime: 3_000_000_000, pid: nil,
                               steps: [], events: [], samples: [], outcome: .completed, outcomeDetail: nil,
                               exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        var report = ReportBuilder.build(records: [record], tool: ToolInfo(version: "test"), generatedAt: "2026-11-26T00:00:00Z",
                                         environment: ReportTests.environment)
        for schedule in [ScheduleSummary.of([record], mode: "demand", wallSeconds: 4, cores: 2, scenarioSeconds: 2),
                         ScheduleSummary.of([], mode: "jobs 1", wallSeconds: 0, cores: 2, scenarioSeconds: 0)] {
            report.schedule = schedule
            let data = try ReportJSON.encode(report)
            let errors = try ReportTests.validator().validate(data)
            XCTAssertEqual(errors, [], errors.joined(separator: "\n"))
            XCTAssertEqual(try ReportJSON.decode(data).schedule, schedule)
        }
        // The streaming writer writes it too (the bytes of ReportJSON.encode).
        XCTAssertEqual(try ReportJSONWriter.encode(report), try ReportJSON.encode(report))
    }
}
