import XCTest
@testable import FrugalCore
import FrugalTestSupport

final class ReportComparatorTests: XCTestCase {
    func testTheSameDistributionIsNotARegression() {
        // Interleaved values: ranks mix, so the test cannot be significant.
        let base = SyntheticReports.report(wakeups: [10, 12, 14, 16, 18], idleRates: [0, 0.1, 0, 0.1, 0])
        let head = SyntheticReports.report(wakeups: [11, 13, 15, 17, 19], idleRates: [0.1, 0, 0.1, 0, 0])
        let comparison = ReportComparator.compare(base: base, head: head, baseline: "base.json")
        XCTAssertEqual(comparison.regressions, [])
        XCTAssertNil(comparison.insufficientRepetitions)
        let entries = comparison.results[0].audits + comparison.results[0].metrics
        XCTAssertEqual(Set(entries.map(\.name)), ["power.avoid-polling", MetricName.cpuWakeups])
        XCTAssertEqual(entries.first { $0.name == MetricName.cpuWakeups }?.verdict, .unchanged)
        // Idle rates measured in steps of 0.1/s cannot tell a 0.02/s threshold: inconclusive,
        // listed apart, never a regression.
        XCTAssertEqual(entries.first { $0.name == "power.avoid-polling" }?.verdict, .inconclusive)
        XCTAssertEqual(comparison.inconclusive?.map(\.name), ["power.avoid-polling"])
    }

    func testASeparatedLargeChangeIsARegressionListedWorstFirst() throws {
        // Complete separation 5 vs 5 without ties: exact two-sided p = 2/252 ≈ 0.0079 ≤ 0.05.
        // Idle rate 0.1 → 2.5 (+2400 %, above 20 % and 0.1/5 = 0.02/s); wakeups 10 → 30 (+200 %).
        let base = SyntheticReports.report(wakeups: [9, 10, 11, 12, 8], idleRates: [0.08, 0.09, 0.1, 0.11, 0.12])
        let head = SyntheticReports.report(wakeups: [29, 30, 31, 32, 28], idleRates: [2.4, 2.45, 2.5, 2.55, 2.6])
        let comparison = ReportComparator.compare(base: base, head: head, baseline: "base.json")
        XCTAssertEqual(comparison.regressions.map(\.name), ["power.avoid-polling", MetricName.cpuWakeups])
        let first = try XCTUnwrap(comparison.regressions.first)
        XCTAssertEqual(first.base?.median, 0.1)
        XCTAssertEqual(first.head?.median, 2.5)
        XCTAssertEqual(first.test, "exact")
        XCTAssertEqual(try XCTUnwrap(first.absoluteChange), 2.4, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(first.pValue), 2.0 / 252.0, accuracy: 1e-12)
        XCTAssertEqual(first.verdict, .regressed)
    }

    func testAChangeBelowTheMinimumEffectIsNotARegression() {
        // Separated (p ≈ 0.0079) but 10 → 12 wakeups is +2, under the 15-wakeup floor. The values
        // vary a little, so the statistics judge them (constant ones are an exact count: see
        // ThreeAnswerComparisonTests).
        let base = SyntheticReports.report(wakeups: [10, 9, 10, 11, 10], idleRates: [0, 0, 0, 0, 0])
        let head = SyntheticReports.report(wakeups: [12, 13, 12, 12, 14], idleRates: [0, 0, 0, 0, 0])
        let comparison = ReportComparator.compare(base: base, head: head, baseline: "b")
        XCTAssertEqual(comparison.regressions, [])
        let wakeups = comparison.results[0].metrics.first { $0.name == MetricName.cpuWakeups }
        XCTAssertEqual(wakeups?.verdict, .unchanged)
        XCTAssertTrue(wakeups?.reason.contains("minimum absolute change 15") ?? false, wakeups?.reason ?? "")
    }

    func testTooFewRepetitionsSaySoInsteadOfUnchanged() {
        let base = SyntheticReports.report(wakeups: [10, 10, 10], idleRates: [0, 0, 0])
        let head = SyntheticReports.report(wakeups: [90, 90, 90], idleRates: [5, 5, 5])
        let comparison = ReportComparator.compare(base: base, head: head, baseline: "b")
        XCTAssertEqual(comparison.regressions, [])
        XCTAssertTrue(comparison.insufficientRepetitions?.contains("insufficient repetitions: base has 3, head has 3") ?? false,
                      comparison.insufficientRepetitions ?? "nil")
        XCTAssertTrue(comparison.results[0].metrics.allSatisfy { $0.verdict == .insufficientData })
    }

    func testTimingMetricsAreReportedButDoNotGate() {
        func report(_ cpu: [Double]) -> Report {
            let runs = cpu.enumerated().map { SyntheticReports.run("launch.deferred", repetition: $0.offset + 1, metrics: [MetricName.cpuTimeSeconds: $0.element], audits: [:]) }
            return Report(tool: ToolInfo(version: "t"), generatedAt: "g", environment: SyntheticReports.environment, runs: runs, results: ReportBuilder.aggregate(runs))
        }
        // The load-driven change measured on this machine: 0.2–0.34 s against 0.88–1.3 s.
        let comparison = ReportComparator.compare(base: report([0.20, 0.21, 0.34, 0.28, 0.24]), head: report([1.20, 1.20, 1.28, 1.30, 0.88]), baseline: "b")
        XCTAssertEqual(comparison.results[0].metrics.first?.verdict, .regressed)
        XCTAssertEqual(comparison.regressions, [])
    }

    func testWorkloadsInOnlyOneReportAreListed() {
        let base = SyntheticReports.report("idle", wakeups: [1, 1, 1, 1, 1], idleRates: [0, 0, 0, 0, 0])
        let head = SyntheticReports.report("news.polling", wakeups: [1, 1, 1, 1, 1], idleRates: [0, 0, 0, 0, 0])
        let comparison = ReportComparator.compare(base: base, head: head, baseline: "b")
        XCTAssertEqual(comparison.unmatched, ["idle · standard (only in the baseline)", "news.polling · standard (not in the baseline)"])
        XCTAssertEqual(comparison.results.count, 0)
    }

    func testMinimumEffectOfAnAuditFollowsItsControlPoint() {
        // power.avoid-polling scores 0.9 at 0.1/s: the floor is a fifth of it.
        XCTAssertEqual(MinimumEffectTable.audit("power.avoid-polling").absolute, 0.02)
        XCTAssertEqual(MinimumEffectTable.audit("power.avoid-polling").relative, 0.20)
        XCTAssertEqual(MinimumEffectTable.audit("lifecycle.launch-time").absolute, 80)
        XCTAssertEqual(MinimumEffectTable.metric("some.newMetric").relative, 0.10)
    }
}
