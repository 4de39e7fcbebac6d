import XCTest
@testable import FrugalCore
import FrugalTestSupport

final class FixPriorityTests: XCTestCase {
    /// A workload with a failing polling audit (Power), a failing launch time (Lifecycle) and a
    /// passing write budget (Disk).
    func result() -> (WorkloadResult, [RunReport]) {
        let run = SyntheticReports.run("w", repetition: 1, metrics: [:],
                                       audits: ["power.avoid-polling": 20, "lifecycle.launch-time": 900, "disk.write-budget": 1_000_000])
        return (ReportBuilder.aggregate([run])[0], [run])
    }

    func testOnlyAuditsBelowThePassLineAreListedLargestGainFirst() throws {
        let (result, runs) = result()
        let items = FixPriority.items(for: result, runs: runs)
        XCTAssertEqual(items.map(\.auditID), ["power.avoid-polling", "lifecycle.launch-time"])
        XCTAssertGreaterThan(items[0].scoreGain, items[1].scoreGain)
    }

    func testTheScoreGainIsTheOverallScoreWithTheAuditFixed() throws {
        let (result, runs) = result()
        let polling = try XCTUnwrap(FixPriority.items(for: result, runs: runs).first)
        var scores = result.audits.mapValues { $0.score }
        scores["power.avoid-polling"] = 1
        let fixed = try XCTUnwrap(ReportBuilder.overallScore(ReportBuilder.categoryScores(scores), auditScores: scores))
        XCTAssertEqual(polling.scoreGain, (fixed - (result.score ?? 0)) * 100, accuracy: 1e-9)
        XCTAssertEqual(polling.passLine, 0.1)
    }

    func testPollingSavesTheWakeupsAboveThePassLineAtTheModelsCostPerWakeup() throws {
        let (result, runs) = result()
        let polling = try XCTUnwrap(FixPriority.items(for: result, runs: runs).first)
        let energy = try XCTUnwrap(polling.savings.first { $0.kind == .energy })
        let perWakeup = DeviceProfile.reference.cpu.wakeupJoules.value
        XCTAssertEqual(energy.amount, (20 - 0.1) * 3600 * perWakeup, accuracy: 1e-9)
        XCTAssertEqual(energy.span, "per hour idle")
        let rate = try XCTUnwrap(polling.savings.first { $0.kind == .rate })
        XCTAssertEqual(rate.amount, 19.9, accuracy: 1e-9)
    }

    func testTheLaunchSavesMillisecondsToThePassLine() throws {
        let (result, runs) = result()
        let launch = try XCTUnwrap(FixPriority.items(for: result, runs: runs).first { $0.auditID == "lifecycle.launch-time" })
        XCTAssertEqual(launch.savings.map(\.kind), [.time])
        XCTAssertEqual(launch.savings[0].amount, 500, accuracy: 1e-9)
    }

    func testAReportRanksAcrossWorkloadsAndAPassingReportHasNothing() {
        let bad = SyntheticReports.report("bad", wakeups: [1], idleRates: [30])
        let worse = SyntheticReports.report("worse", wakeups: [1], idleRates: [300])
        var report = bad
        report.runs += worse.runs
        report.results += worse.results
        XCTAssertEqual(FixPriority.rank(report).map(\.workload), ["worse", "bad"])
        XCTAssertTrue(FixPriority.rank(SyntheticReports.report(wakeups: [1], idleRates: [0])).isEmpty)
    }

    func testEveryRuleHasAFix() {
        for rule in RuleCatalogue.all { XCTAssertNotNil(FixAdvice.text(rule.id), rule.id) }
    }
}

extension FixPriorityTests {
    func testFrequentWritesSaveTheDiskModelsCostPerWrite() throws {
        let run = SyntheticReports.run("w", repetition: 1, metrics: [:], audits: ["disk.avoid-frequent-writes": 60])
        let result = ReportBuilder.aggregate([run])[0]
        let fix = try XCTUnwrap(FixPriority.items(for: result, runs: [run]).first)
        let energy = try XCTUnwrap(fix.savings.first { $0.kind == .energy })
        XCTAssertEqual(energy.amount, (60 - 2) * 60 * DeviceProfile.reference.disk.operationJoules.value, accuracy: 1e-12)
        XCTAssertEqual(energy.span, "per hour")
    }
}
