import XCTest
@testable import FrugalHarness
import FrugalCore

/// Memory as iOS counts it (issue 30): an app that empties a plain 80 MiB dictionary when it
/// enters the background passes `memory.free-on-background` with glibc (FrugalKit gives the freed
/// memory back as Darwin's allocator would); its twin that keeps the dictionary fails it. The
/// same twins answer a memory warning by emptying it, or ignore it: `memory.respond-to-warnings`.
/// Gated runs (XCTestCase+Machine.swift): the fill is an input, held alone; the footprint read
/// is the app's own resident memory, which a sleeping neighbour on this 24 GiB machine cannot
/// move (no limit, no reclaim), so the warning and the background stay beside others, the
/// twin's included: each pair runs side by side, as `frugal run` schedules gated runs.
final class AllocatorReliefTests: XCTestCase {
    static let scenario = Scenario(name: "background", summary: "fill, background", steps: [
        .launch, .wait(seconds: 0.5), .input(kind: "fill"), .wait(seconds: 1), .home, .wait(seconds: 2), .foreground, .terminate,
    ])

    /// The twins' `audit` results, their runs side by side (ResourceScheduler: one launch or fill
    /// at a time, the waits together): about 5 s, where one after the other took 10.
    func twins(_ scenario: Scenario, _ audit: String) throws -> (frees: AuditResult, keeps: AuditResult) {
        let host = try XCTUnwrap(WorkloadHostLocator.locate(), "frugal-workload-host is not built beside the tests")
        let plans = try ["dictionary-cache.frees", "dictionary-cache.keeps"].map { app in
            RunPlan(target: try MainThreadIdiomTests.fixture(app), scenario: scenario).demanding(.gated("fills in an input; judged on its own footprint"))
        }
        let records = try ResourceScheduler(options: HarnessOptions(workloadHost: host)).run(plans)
        XCTAssertEqual(records.count, 2)
        let audits = try records.map { record in
            XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
            return try XCTUnwrap(ReportBuilder.runReport(record).audits[audit], "\(record.workload): no \(audit)")
        }
        return (audits[0], audits[1])
    }

    /// Fill the dictionary, then a warning: one twin empties it in didReceiveMemoryWarning, the
    /// other ignores the warning. Neither uses FrugalKit's Cache: the footprint is the evidence.
    static let warningScenario = Scenario(name: "warning", summary: "fill, warning", steps: [
        .launch, .wait(seconds: 0.5), .input(kind: "fill"), .wait(seconds: 1), .memoryWarning(level: .warning), .wait(seconds: 1.5), .terminate,
    ])

    func testEmptyingAPlainDictionaryOnAWarningPassesAndIgnoringItFails() throws {
        let (frees, keeps) = try twins(Self.warningScenario, "memory.respond-to-warnings")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(frees.score, frees.explanation ?? frees.displayValue), 0.9, frees.displayValue)
        XCTAssertLessThan(try XCTUnwrap(keeps.score, keeps.explanation ?? keeps.displayValue), 0.5, keeps.displayValue)
    }

    func testAFreedDictionaryPassesAndAKeptOneFails() throws {
        let (frees, keeps) = try twins(Self.scenario, "memory.free-on-background")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(frees.score, frees.explanation ?? frees.displayValue), 0.9, frees.displayValue)
        XCTAssertLessThan(try XCTUnwrap(keeps.score, keeps.explanation ?? keeps.displayValue), 0.5, keeps.displayValue)
    }
}
