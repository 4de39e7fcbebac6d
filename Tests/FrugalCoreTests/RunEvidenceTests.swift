import XCTest
import Foundation
@testable import FrugalCore
import FrugalTestSupport

/// Gather once, audit many: a suite's records kept as evidence make its report again, and the
/// scores that moved between two reports are named. Pure; `CLITraceTests` re-audits real runs.
final class RunEvidenceTests: XCTestCase {
    static let second: UInt64 = 1_000_000_000

    /// A run that launched, waited 2 s and terminated.
    static func record(workload: String) -> RunRecord {
        let steps = [
            StepRecord(index: 0, step: .launch, start: 0, end: second / 10),
            StepRecord(index: 1, step: .wait(seconds: 2), start: second / 10, end: 21 * second / 10),
            StepRecord(index: 2, step: .terminate, start: 21 * second / 10, end: 22 * second / 10),
        ]
        return RunRecord(workload: workload, scenario: "idle", repetition: 1, startTime: 0, endTime: 22 * second / 10, pid: 7,
                         steps: steps, events: [], samples: [], outcome: .completed, outcomeDetail: nil,
                         exitStatus: ExitStatus(code: 0), resourceUsage: nil)
    }

    func testTheEvidenceRoundTripsAndMakesTheSameReport() throws {
        let records = [Self.record(workload: "a"), Self.record(workload: "b")]
        let tool = ToolInfo(version: "test")
        let evidence = RunEvidence(gatheredBy: tool, generatedAt: "2026-11-26T00:00:00Z", environment: SyntheticReports.environment,
                                   shard: ShardInfo(index: 1, count: 2), schedule: nil, assertions: nil, rulePacks: [AppleLimits.packName],
                                   records: records)
        let decoded = try JSONDecoder().decode(RunEvidence.self, from: JSONEncoder().encode(evidence))
        XCTAssertEqual(decoded.records.count, 2)
        XCTAssertEqual(decoded.format, RunEvidence.currentFormat)
        let direct = ReportBuilder.build(records: records, tool: tool, generatedAt: evidence.generatedAt, environment: evidence.environment)
        let again = decoded.report(tool: tool)
        XCTAssertEqual(again.shard, ShardInfo(index: 1, count: 2))
        XCTAssertEqual(again.results.map(\.score), direct.results.map(\.score))
        XCTAssertEqual(again.runs.map(\.audits), direct.runs.map(\.audits))
        XCTAssertNotNil(again.runs[0].appleLimits, "the rule pack the suite ran with judges the runs again")
        XCTAssertTrue(ReauditChanges.between(direct, again).isEmpty)
    }

    func testMovedScoresAreNamedAndUnmovedOnesAreNot() throws {
        let tool = ToolInfo(version: "test")
        var before = ReportBuilder.build(records: [Self.record(workload: "a")], tool: tool, generatedAt: "t",
                                         environment: SyntheticReports.environment)
        before.results[0].score = 0.5
        var after = before
        let audit = try XCTUnwrap(after.results[0].audits.keys.sorted().first, "the run has audits")
        after.results[0].audits[audit]?.median.score = 0.2
        after.results[0].score = 0.1
        var tiny = before
        tiny.results[0].score = 0.504
        XCTAssertTrue(ReauditChanges.between(before, tiny).isEmpty, "a move under half a hundredth is rounding, not a change")
        let changes = ReauditChanges.between(before, after)
        XCTAssertEqual(changes.map(\.audit), ["overall", audit])
        XCTAssertEqual(changes.first?.after, 0.1)
        XCTAssertEqual(changes.last?.after, 0.2)
        var gone = after
        gone.results[0].audits[audit] = nil
        XCTAssertEqual(ReauditChanges.between(after, gone).first { $0.audit == audit }?.after, nil)
        XCTAssertTrue(ReauditChanges.between(after, gone).contains { $0.audit == audit }, "an audit that went away is a change")
    }
}
