import XCTest
@testable import FrugalCore
import FrugalTestSupport

/// Runs group into results by a typed key: names that a joined string would have made equal
/// stay apart (a NUL inside a name once merged two results), and messages name a result once.
final class ResultKeyTests: XCTestCase {
    func testNamesThatWouldJoinAlikeStayApart() {
        let one = ResultKey(workload: "a\u{0}b", scenario: "c")
        let other = ResultKey(workload: "a", scenario: "b\u{0}c")
        XCTAssertEqual(one.workload + "\u{0}" + one.scenario, other.workload + "\u{0}" + other.scenario, "the old joined key collides")
        XCTAssertNotEqual(one, other)
        XCTAssertEqual(Set([one, other]).count, 2)
    }

    func testRunsOfOneResultGroupTogetherInFirstSeenOrder() {
        let runs = [SyntheticReports.run("y", repetition: 1, metrics: [:], audits: [:]),
                    SyntheticReports.run("x", repetition: 1, metrics: [:], audits: [:]),
                    SyntheticReports.run("y", repetition: 2, metrics: [:], audits: [:])]
        let groups = RunReport.groupedByResult(runs)
        XCTAssertEqual(groups.count, 2)
        for group in groups { XCTAssertEqual(Set(group.map(\.resultKey)).count, 1) }
        XCTAssertEqual(groups.map { $0.map(\.repetition) }, [[1, 2], [1]])
        XCTAssertEqual(groups[0][0].resultKey, ResultKey(workload: "y", scenario: "standard"))
        XCTAssertEqual(groups[0][0].resultKey.description, "y · standard")
    }
}
