import XCTest
@testable import FrugalHarness
import FrugalCore

/// Memory as iOS counts it (issue 30): an app that empties a plain 80 MiB dictionary when it
/// enters the background passes `memory.free-on-background` with glibc (FrugalKit gives the freed
/// memory back as Darwin's allocator would); its twin that keeps the dictionary fails it.
final class AllocatorReliefTests: XCTestCase {
    static let scenario = Scenario(name: "background", summary: "fill, background", steps: [
        .launch, .wait(seconds: 0.5), .input(kind: "fill"), .wait(seconds: 1), .home, .wait(seconds: 2), .foreground, .terminate,
    ])

    func audit(_ app: String) throws -> AuditResult {
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: try MainThreadIdiomTests.fixture(app), scenario: Self.scenario))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        return try XCTUnwrap(ReportBuilder.runReport(record).audits["memory.free-on-background"])
    }

    func testAFreedDictionaryPassesAndAKeptOneFails() throws {
        let frees = try audit("dictionary-cache.frees")
        let keeps = try audit("dictionary-cache.keeps")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(frees.score, frees.explanation ?? frees.displayValue), 0.9, frees.displayValue)
        XCTAssertLessThan(try XCTUnwrap(keeps.score, keeps.explanation ?? keeps.displayValue), 0.5, keeps.displayValue)
    }
}
