import XCTest
@testable import FrugalCore
import FrugalTestSupport

final class AssertionEvaluatorTests: XCTestCase {
    func testErrorFailsWarnDoesNotAndMediansAreUsed() {
        // Idle rates 0, 0, 3: median 0 → score 1; the one bad run does not fail the median.
        let report = SyntheticReports.report(wakeups: [1, 1, 1], idleRates: [0, 0, 3])
        let set = AssertionSet(preset: nil, assertions: [
            Assertion(target: .audit("power.avoid-polling"), level: .error, maxNumericValue: 0.5),
            Assertion(target: .category(.power), level: .warn, minScore: 0.95),
        ])
        let outcome = AssertionEvaluator.evaluate(set, results: report.results)
        XCTAssertFalse(outcome.failed)
        XCTAssertTrue(outcome.results.allSatisfy(\.passed))

        let polling = SyntheticReports.report(wakeups: [1, 1, 1], idleRates: [2.4, 2.5, 2.6])
        let failing = AssertionEvaluator.evaluate(set, results: polling.results)
        XCTAssertTrue(failing.failed)
        XCTAssertEqual(failing.results.first?.target, "power.avoid-polling")
        XCTAssertEqual(failing.results.first?.actual, 2.5)
        XCTAssertEqual(failing.results.map(\.passed), [false, false])
        XCTAssertEqual(failing.results.map(\.level), [.error, .warn], "errors first")
    }

    func testOffIsNotCheckedAndMissingValuesDoNotFail() {
        let report = SyntheticReports.report(wakeups: [1], idleRates: [9])
        let set = AssertionSet.merging(preset: .strict, overrides: [Assertion(target: .audit("power.avoid-polling"), level: .off)])
        let outcome = AssertionEvaluator.evaluate(set, results: report.results)
        XCTAssertFalse(outcome.results.contains { $0.target == "power.avoid-polling" })
        // main.no-long-blocks was not run in this synthetic report: no value, so it passes and says why.
        let blocks = outcome.results.first { $0.target == "main.no-long-blocks" }
        XCTAssertEqual(blocks?.passed, true)
        XCTAssertTrue(blocks?.message.contains("no value to check") ?? false)
    }

    func testPresetsCoverEveryMeasuredAudit() {
        let measured = Set(RuleCatalogue.all.filter(\.measured).map(\.id))
        XCTAssertEqual(Set(AssertionPreset.recommended.assertions.map(\.target.description)), measured)
        XCTAssertTrue(AssertionPreset.recommended.assertions.allSatisfy { $0.level == .error && $0.minScore == 0.5 })
        XCTAssertEqual(AssertionPreset.strict.assertions.count, measured.count + RuleCategory.allCases.count)
    }
}
