import XCTest
@testable import FrugalCore

final class ScoringTests: XCTestCase {
    /// Expected values computed independently with Python's math.erfc on Lighthouse's formula.
    func testLogNormalMatchesIndependentComputation() {
        XCTAssertEqual(LogNormalScoring.score(300, p10: 200, median: 600), 0.790618452823906, accuracy: 1e-12)
        XCTAssertEqual(LogNormalScoring.score(1000, p10: 200, median: 600), 0.27562517766308336, accuracy: 1e-12)
        XCTAssertEqual(LogNormalScoring.score(2.3, p10: 0.1, median: 1), 0.3214768961308617, accuracy: 1e-12)
        XCTAssertEqual(LogNormalScoring.score(150, p10: 200, median: 600), 0.9470757549653752, accuracy: 1e-12)
        XCTAssertEqual(LogNormalScoring.score(1523, p10: 400, median: 2000), 0.5858788936295616, accuracy: 1e-12)
    }

    func testControlPointsScoreExactlyNinetyAndFifty() {
        XCTAssertEqual(LogNormalScoring.score(200, p10: 200, median: 600), 0.9, accuracy: 1e-12)
        XCTAssertEqual(LogNormalScoring.score(600, p10: 200, median: 600), 0.5, accuracy: 1e-12)
        XCTAssertEqual(ScoreBand(score: LogNormalScoring.score(200, p10: 200, median: 600)), .pass)
        XCTAssertEqual(ScoreBand(score: LogNormalScoring.score(600.0001, p10: 200, median: 600)), .fail)
    }

    func testZeroScoresOneAndHugeValuesApproachZero() {
        XCTAssertEqual(LogNormalScoring.score(0, p10: 0.1, median: 1), 1)
        XCTAssertLessThan(LogNormalScoring.score(1e9, p10: 0.1, median: 1), 1e-6)
    }

    func testScoreFallsAsValueRises() {
        var previous = 1.0
        for value in stride(from: 10.0, through: 5000, by: 10) {
            let score = LogNormalScoring.score(value, p10: 400, median: 2000)
            XCTAssertLessThanOrEqual(score, previous, "score rose at \(value)")
            previous = score
        }
    }

    func testBinaryCurve() {
        XCTAssertEqual(ScoringCurve.binary(maxPassing: 0).score(0), 1)
        XCTAssertEqual(ScoringCurve.binary(maxPassing: 0).score(1), 0)
    }
}

/// The overall score: half the weakest applicable audit, half the mean of the categories.
final class OverallScoreTests: XCTestCase {
    func testOneFailingAuditAmongManyPassesPullsTheOverallScoreOutOfThePassBand() throws {
        var scores: [String: Double?] = [:]
        for rule in RuleCatalogue.all where rule.measured { scores[rule.id] = 1 }
        scores["disk.clean-tmp"] = 0.4
        let categories = ReportBuilder.categoryScores(scores)
        let overall = try XCTUnwrap(ReportBuilder.overallScore(categories, auditScores: scores))
        // Disk's mean is (5 + 0.4) / 6 = 0.9; the others 1: the mean of six categories is 0.98333.
        XCTAssertEqual(overall, 0.5 * 0.4 + 0.5 * (5 + 0.9) / 6, accuracy: 1e-12)
        XCTAssertLessThan(overall, 0.75)
    }

    func testNotApplicableAuditsAndEmptyCategoriesCountNowhere() throws {
        let scores: [String: Double?] = ["power.avoid-polling": 0.95, "disk.clean-tmp": nil, "disk.write-budget": nil]
        let categories = ReportBuilder.categoryScores(scores)
        XCTAssertNil(try XCTUnwrap(categories["disk"]).score, "a category with no applicable audit has no score")
        XCTAssertNil(categories["memory"], "nor is a category listed whose audits did not run")
        XCTAssertEqual(try XCTUnwrap(ReportBuilder.overallScore(categories, auditScores: scores)), 0.95, accuracy: 1e-12)
    }
}
