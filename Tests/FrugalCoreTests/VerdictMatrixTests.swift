import XCTest
@testable import FrugalCore

/// `frugal verdicts`' counts on hand-made results: each kind of error is counted once, and a
/// clean suite counts none.
final class VerdictMatrixTests: XCTestCase {
    static func result(_ workload: String, _ audits: [String: Double?], scenario: String = "s") -> WorkloadResult {
        var aggregated: [String: AggregatedAudit] = [:]
        for (id, score) in audits {
            let median = AuditResult(id: id, title: id, score: score, scoreDisplayMode: score == nil ? .notApplicable : .numeric,
                                     numericValue: nil, numericUnit: "", displayValue: score.map { "\($0)" } ?? "not applicable",
                                     explanation: score == nil ? "nothing to judge" : nil)
            aggregated[id] = AggregatedAudit(median: median, values: [], minValue: nil, maxValue: nil)
        }
        let categories = ReportBuilder.categoryScores(audits)
        return WorkloadResult(workload: workload, scenario: scenario, repetitions: 5, outcomes: ["completed": 5], audits: aggregated,
                              categories: categories, score: ReportBuilder.overallScore(categories, auditScores: audits))
    }

    static let pairs = [WorkloadPair(bad: "news.polling", good: "news.coalesced", audit: "power.avoid-polling"),
                        WorkloadPair(bad: "prefs.save-every-change", good: "prefs.save-coalesced", audit: "disk.avoid-frequent-writes")]

    func testACleanSuiteCountsNoError() {
        let matrix = VerdictMatrix(results: [
            Self.result("news.polling", ["power.avoid-polling": 0.27, "lifecycle.launch-time": 1]),
            Self.result("news.coalesced", ["power.avoid-polling": 1, "lifecycle.launch-time": 1, "disk.clean-tmp": nil]),
            Self.result("prefs.save-every-change", ["disk.avoid-frequent-writes": 0.37, "disk.clean-tmp": 1, "power.avoid-polling": 1]),
            Self.result("prefs.save-coalesced", ["disk.avoid-frequent-writes": 0.95, "disk.clean-tmp": 1, "power.avoid-polling": 1]),
            Self.result("idle", ["power.avoid-polling": 1]),
        ], pairs: Self.pairs, alsoGood: ["idle"])
        XCTAssertEqual(matrix.falseAlarms, 0)
        XCTAssertEqual(matrix.misses, 0)
        XCTAssertEqual(matrix.unseparatedPairs, 0)
        XCTAssertTrue(matrix.isClean)
        // The not-applicable audit is listed, without a score and without an error.
        XCTAssertEqual(matrix.cells.first { $0.workload == "news.coalesced" && $0.audit == "disk.clean-tmp" }?.score, nil)
    }

    func testEachKindOfErrorIsCounted() {
        let matrix = VerdictMatrix(results: [
            // A miss: the bad workload is not below 0.5 on its own audit.
            Self.result("news.polling", ["power.avoid-polling": 0.6]),
            // A false alarm on a good workload (0.85 < 0.9), which also leaves its pair unseparated.
            Self.result("news.coalesced", ["power.avoid-polling": 1, "disk.write-budget": 0.85]),
            // Not scored on its own audit: a miss too.
            Self.result("prefs.save-every-change", ["disk.avoid-frequent-writes": nil]),
        ], pairs: Self.pairs)
        XCTAssertEqual(matrix.falseAlarms, 1)
        XCTAssertEqual(matrix.misses, 2)
        XCTAssertEqual(matrix.unseparatedPairs, 2, "news: good below 0.9 overall; prefs: the good twin is missing")
        XCTAssertEqual(matrix.missing, ["prefs.save-coalesced"])
        XCTAssertFalse(matrix.isClean)
    }

    func testAPairCloserThanOneTenthOverallIsNotSeparated() {
        // Built by hand: overall scores of 0.95 and 0.9 are too close, though each audit verdict is right.
        var bad = Self.result("news.polling", ["power.avoid-polling": 0.3])
        bad.score = 0.9
        var good = Self.result("news.coalesced", ["power.avoid-polling": 0.95])
        good.score = 0.95
        let matrix = VerdictMatrix(results: [bad, good], pairs: [Self.pairs[0]])
        XCTAssertEqual(matrix.misses, 0)
        XCTAssertEqual(matrix.falseAlarms, 0)
        XCTAssertEqual(matrix.unseparatedPairs, 1)
    }

    /// A good app judged in each scenario it ran: passing its first scenario does not hide a
    /// failing second one (frugal verdicts once kept only a workload's first result).
    func testEveryScenarioOfAWorkloadIsJudged() {
        let matrix = VerdictMatrix(results: [
            Self.result("news.coalesced", ["power.avoid-polling": 1, "lifecycle.launch-time": 1], scenario: "day"),
            Self.result("news.coalesced", ["power.avoid-polling": 0.1, "lifecycle.launch-time": 1], scenario: "leave"),
            Self.result("news.polling", ["power.avoid-polling": 0.2, "lifecycle.launch-time": 1], scenario: "day"),
        ], pairs: [Self.pairs[0]])
        XCTAssertEqual(matrix.falseAlarms, 1)
        XCTAssertEqual(matrix.cells.first { $0.error != nil }?.scenario, "leave")
        XCTAssertEqual(matrix.misses, 0)
        // The pair is judged in the scenario both ran: day, where the twin passes.
        XCTAssertEqual(matrix.pairs.map(\.scenario), ["day"])
        XCTAssertEqual(matrix.unseparatedPairs, 0)
        XCTAssertEqual(matrix.scenarioScores.filter { $0.workload == "news.coalesced" }.map(\.scenario), ["day", "leave"])
        XCTAssertLessThan(matrix.overall["news.coalesced"] ?? 1, 0.9, "a workload's overall is its worst scenario's")
        XCTAssertFalse(matrix.isClean)
    }

    /// A bad app that ran two scenarios is caught in each that scores its audit; one that
    /// passes its audit in one of them is a miss there.
    func testABadWorkloadIsJudgedInEachScenarioThatScoresItsAudit() {
        let matrix = VerdictMatrix(results: [
            Self.result("news.coalesced", ["power.avoid-polling": 1], scenario: "day"),
            Self.result("news.polling", ["power.avoid-polling": 0.2], scenario: "day"),
            Self.result("news.polling", ["power.avoid-polling": 0.95], scenario: "night"),
            Self.result("news.polling", ["power.avoid-polling": nil], scenario: "launch-only"),
        ], pairs: [Self.pairs[0]])
        XCTAssertEqual(matrix.misses, 1, "night: not below 0.5; launch-only did not score it and is not a miss")
        XCTAssertEqual(matrix.cells.filter { $0.role == .bad }.map(\.scenario), ["day", "night"])
        XCTAssertEqual(matrix.pairs.count, 2)
    }
}
