import XCTest
@testable import FrugalCore
import FrugalTestSupport

/// `frugal merge` of reports that are no shards: two runs of one suite pool their repetitions;
/// reports of different suites are refused naming both (they once merged without a word), or
/// merged with a warning when asked (issue 24, round two).
final class MergeSuitesTests: XCTestCase {
    /// The suite's reports with only `workloads`' runs, as a `frugal run --workload ...` of them makes.
    static func report(of workloads: Set<String>) -> Report {
        var report = ShardMergeTests.suite()
        report.runs = report.runs.filter { workloads.contains($0.workload) }
        report.results = ReportBuilder.aggregate(report.runs)
        return report
    }

    func testReportsOfOneSuitePoolWithoutAWord() throws {
        let (merged, warnings) = try ReportMerger.merge([Self.report(of: ["a", "b"]), Self.report(of: ["a", "b"])], names: ["x.json", "y.json"])
        XCTAssertEqual(merged.results.map(\.repetitions), [10, 10])
        XCTAssertFalse(warnings.contains { $0.contains("different suites") }, "\(warnings)")
    }

    func testReportsOfDifferentSuitesAreRefusedNamingBoth() throws {
        let reports = [Self.report(of: ["a", "b"]), Self.report(of: ["a", "b"]), Self.report(of: ["a", "c", "d"])]
        XCTAssertThrowsError(try ReportMerger.merge(reports, names: ["x.json", "y.json", "z.json"])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("x.json and z.json are reports of different suites"), text)
            XCTAssertTrue(text.contains("only x.json ran b · standard"), text)
            XCTAssertTrue(text.contains("only z.json ran c · standard, d · standard"), text)
            XCTAssertTrue(text.contains("--allow-different-suites"), text)
        }
        let (merged, warnings) = try ReportMerger.merge(reports, names: ["x.json", "y.json", "z.json"], allowDifferentSuites: true)
        XCTAssertEqual(Set(merged.results.map(\.workload)), ["a", "b", "c", "d"])
        XCTAssertTrue(warnings.contains { $0.contains("x.json and z.json are reports of different suites") }, "\(warnings)")
    }
}
