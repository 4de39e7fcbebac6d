import XCTest
@testable import FrugalCore

/// The schedule's efficiency, as `frugal run` prints it and report.json keeps it.
final class ScheduleSummaryTests: XCTestCase {
    static func record(from start: Double, seconds: Double) -> RunRecord {
        RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: UInt64(start * 1e9), endTime: UInt64((start + seconds) * 1e9), pid: nil,
                  steps: [], events: [], samples: [], outcome: .completed, outcomeDetail: nil, exitStatus: nil, resourceUsage: nil)
    }

    func testUtilizationAndWallOverLongest() throws {
        // 30 s and 10 s of runs in a 40 s suite on 2 cores: half the cores, 1.33× the longest.
        let summary = ScheduleSummary.of([Self.record(from: 0, seconds: 30), Self.record(from: 0, seconds: 10)], mode: "demand",
                                         wallSeconds: 40, cores: 2, scenarioSeconds: 36)
        XCTAssertEqual(summary.runSeconds, 40, accuracy: 1e-6)
        XCTAssertEqual(summary.longestRunSeconds, 30, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(summary.utilization), 0.5, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(summary.wallOverLongest), 40.0 / 30, accuracy: 1e-6)
        XCTAssertTrue(summary.line.contains("0.50"), summary.line)
        XCTAssertTrue(summary.line.contains("1.33×"), summary.line)
        // Kept in report.json as it was computed.
        let decoded = try JSONDecoder().decode(ScheduleSummary.self, from: JSONEncoder().encode(summary))
        XCTAssertEqual(decoded, summary)
    }

    func testNoTimeIsNoRatioRatherThanZero() {
        let summary = ScheduleSummary.of([], mode: "jobs 1", wallSeconds: 0, cores: 2, scenarioSeconds: 0)
        XCTAssertNil(summary.utilization)
        XCTAssertNil(summary.wallOverLongest)
    }
}
