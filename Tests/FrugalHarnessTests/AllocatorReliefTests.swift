import XCTest
@testable import FrugalHarness
import FrugalCore

/// Memory as iOS counts it (issue 30): an app that empties a plain 80 MiB dictionary when it
/// enters the background passes `memory.free-on-background` with glibc (FrugalKit gives the freed
/// memory back as Darwin's allocator would); its twin that keeps the dictionary fails it. The
/// same twins answer a memory warning by emptying it, or ignore it: `memory.respond-to-warnings`.
/// Gated runs (XCTestCase+Machine.swift): the fill is an input, held alone; the footprint read
/// is the app's own resident memory, which a sleeping neighbour on this 24 GiB machine cannot
/// move (no limit, no reclaim), so the warning and the background stay beside others.
final class AllocatorReliefTests: XCTestCase {
    static let scenario = Scenario(name: "background", summary: "fill, background", steps: [
        .launch, .wait(seconds: 0.5), .input(kind: "fill"), .wait(seconds: 1), .home, .wait(seconds: 2), .foreground, .terminate,
    ])

    func audit(_ app: String) throws -> AuditResult {
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: try MainThreadIdiomTests.fixture(app), scenario: Self.scenario).demanding(.gated("fills in an input; judged on its own footprint")))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        return try XCTUnwrap(ReportBuilder.runReport(record).audits["memory.free-on-background"])
    }

    /// Fill the dictionary, then a warning: one twin empties it in didReceiveMemoryWarning, the
    /// other ignores the warning. Neither uses FrugalKit's Cache: the footprint is the evidence.
    static let warningScenario = Scenario(name: "warning", summary: "fill, warning", steps: [
        .launch, .wait(seconds: 0.5), .input(kind: "fill"), .wait(seconds: 1), .memoryWarning(level: .warning), .wait(seconds: 1.5), .terminate,
    ])

    func testEmptyingAPlainDictionaryOnAWarningPassesAndIgnoringItFails() throws {
        func audit(_ app: String) throws -> AuditResult {
            let record = try ScenarioRunnerTests.runner().run(RunPlan(target: try MainThreadIdiomTests.fixture(app), scenario: Self.warningScenario).demanding(.gated("fills in an input; judged on its own footprint")))
            XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
            return try XCTUnwrap(ReportBuilder.runReport(record).audits["memory.respond-to-warnings"])
        }
        let frees = try audit("dictionary-cache.frees")
        let keeps = try audit("dictionary-cache.keeps")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(frees.score, frees.explanation ?? frees.displayValue), 0.9, frees.displayValue)
        XCTAssertLessThan(try XCTUnwrap(keeps.score, keeps.explanation ?? keeps.displayValue), 0.5, keeps.displayValue)
    }

    func testAFreedDictionaryPassesAndAKeptOneFails() throws {
        let frees = try audit("dictionary-cache.frees")
        let keeps = try audit("dictionary-cache.keeps")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(frees.score, frees.explanation ?? frees.displayValue), 0.9, frees.displayValue)
        XCTAssertLessThan(try XCTUnwrap(keeps.score, keeps.explanation ?? keeps.displayValue), 0.5, keeps.displayValue)
    }
}
