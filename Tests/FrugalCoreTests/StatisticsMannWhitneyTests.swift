import Foundation
import XCTest
@testable import FrugalCore

// Expected values are derived by hand in the comments and were cross-checked
// against scipy.stats.mannwhitneyu(x, y, alternative="two-sided",
// method=...) (SciPy 1.17): the `u` here is SciPy's `statistic` (U₁ of x).
final class StatisticsMannWhitneyTests: XCTestCase {
    // MARK: Exact distribution

    func testExactCountsMatchEnumeration() {
        // Number of 5-of-10 rank sets with U = u (by brute-force enumeration of
        // all C(10, 5) = 252 orderings); symmetric about 12.5.
        let expected: [Double] = [1, 1, 2, 3, 5, 7, 9, 11, 14, 16, 18, 19, 20, 20, 19, 18, 16, 14, 11, 9, 7, 5, 3, 2, 1, 1]
        XCTAssertEqual(MannWhitneyExactDistribution.counts(firstCount: 5, secondCount: 5), expected)
        // 3 vs 4: partitions of u into ≤ 3 parts each ≤ 4; total C(7, 3) = 35.
        XCTAssertEqual(
            MannWhitneyExactDistribution.counts(firstCount: 3, secondCount: 4),
            [1, 1, 2, 3, 4, 4, 5, 4, 4, 3, 2, 1, 1])
    }

    func testExactCountsSumToBinomialAndAreSymmetric() {
        for (m, n) in [(1, 1), (2, 7), (6, 4), (20, 20), (13, 20)] {
            let counts = MannWhitneyExactDistribution.counts(firstCount: m, secondCount: n)
            XCTAssertEqual(counts.count, m * n + 1)
            XCTAssertEqual(counts, counts.reversed(), "U distribution must be symmetric for \(m) vs \(n)")
            var binomial = 1.0
            for k in 0..<min(m, n) { binomial = binomial * Double(m + n - k) / Double(k + 1) }
            XCTAssertEqual(counts.reduce(0, +), binomial.rounded(), "\(m) vs \(n)")
        }
        // C(40, 20) = 137 846 528 820 exactly.
        XCTAssertEqual(MannWhitneyExactDistribution.counts(firstCount: 20, secondCount: 20).reduce(0, +), 137_846_528_820)
    }

    // MARK: Exact p-values

    func testCompleteSeparationFiveVersusFive() throws {
        // x entirely below y: U₁ = 0; only 1 of 252 orderings is that extreme
        // in each direction → p = 2/252 = 0.007936507936507936.
        let test = try MannWhitneyUTest([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        XCTAssertEqual(test.u, 0)
        XCTAssertEqual(test.uSecond, 25)
        XCTAssertEqual(test.method, .exact)
        XCTAssertNil(test.zScore)
        XCTAssertFalse(test.hasTies)
        XCTAssertEqual(test.pValue, 2.0 / 252.0)
        XCTAssertEqual(test.pValue, 0.007936507936507936, accuracy: 1e-17)
    }

    func testInterleavedSamples() throws {
        // x = odds, y = evens: pairs with x > y are 3>2, 5>{2,4}, 7>{2,4,6},
        // 9>{2,4,6,8} → U₁ = 0+1+2+3+4 = 10. P(U ≤ 10) = (1+1+2+3+5+7+9+11+14+16+18)/252
        // = 87/252 → p = 174/252 = 0.6904761904761905.
        let test = try MannWhitneyUTest([1, 3, 5, 7, 9], [2, 4, 6, 8, 10])
        XCTAssertEqual(test.u, 10)
        XCTAssertEqual(test.method, .exact)
        XCTAssertEqual(test.pValue, 0.6904761904761905, accuracy: 1e-15)
    }

    func testSmallSamplesCannotReachSignificance() throws {
        // 3 vs 3 fully separated: p = 2 / C(6, 3) = 2/20 = 0.1 > 0.05.
        let three = try MannWhitneyUTest([1, 2, 3], [4, 5, 6])
        XCTAssertEqual(three.pValue, 0.1, accuracy: 1e-15)
        // 4 vs 4 fully separated: 2 / C(8, 4) = 2/70 = 0.02857142857142857.
        let four = try MannWhitneyUTest([1, 2, 3, 4], [5, 6, 7, 8])
        XCTAssertEqual(four.pValue, 0.02857142857142857, accuracy: 1e-15)

        XCTAssertEqual(MannWhitneyUTest.smallestAchievablePValue(firstCount: 3, secondCount: 3), 0.1, accuracy: 1e-15)
        XCTAssertEqual(MannWhitneyUTest.smallestAchievablePValue(firstCount: 4, secondCount: 4), 2.0 / 70.0, accuracy: 1e-15)
        XCTAssertEqual(MannWhitneyUTest.smallestAchievablePValue(firstCount: 5, secondCount: 5), 2.0 / 252.0, accuracy: 1e-15)
        // 3 vs 4: 2 / C(7, 3) = 2/35 ≈ 0.057 — still not enough for α = 0.05.
        XCTAssertEqual(MannWhitneyUTest.smallestAchievablePValue(firstCount: 3, secondCount: 4), 2.0 / 35.0, accuracy: 1e-15)
        XCTAssertEqual(MannWhitneyUTest.smallestAchievablePValue(firstCount: 1, secondCount: 1), 1)
        XCTAssertEqual(MannWhitneyUTest.smallestAchievablePValue(firstCount: 0, secondCount: 9), 1)
    }

    func testUnequalSizesUnsortedInput() throws {
        // x = {1.5, 0.5, 2.5} vs y = 1...6: 0.5 beats none, 1.5 beats 1, 2.5 beats 1,2
        // → U₁ = 3. For 3 vs 6 (84 orderings) the counts of U = 0,1,2,3 are
        // 1,1,2,3 (partitions of u into ≤ 3 parts) → p = 2·7/84 = 1/6.
        let test = try MannWhitneyUTest([1.5, 0.5, 2.5], [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(test.u, 3)
        XCTAssertEqual(test.method, .exact)
        XCTAssertEqual(test.pValue, 0.16666666666666666, accuracy: 1e-15)
    }

    func testSwappingSamplesMirrorsU() throws {
        let x: [Double] = [3.1, 4.7, 2.2, 9.0, 5.5, 6.1]
        let y: [Double] = [1.0, 2.0, 8.2, 0.3]
        let forward = try MannWhitneyUTest(x, y)
        let backward = try MannWhitneyUTest(y, x)
        XCTAssertEqual(forward.u, backward.uSecond)
        XCTAssertEqual(forward.pValue, backward.pValue, accuracy: 1e-15)
    }

    func testExactAtTwentyPerSide() throws {
        // x = 1...20, y = x + 4.5: x = i beats y_j = j + 4.5 iff j ≤ i − 5
        // → U₁ = 1 + 2 + … + 15 = 120. SciPy exact: p = 0.030411256038764864;
        // its normal approximation would give 0.03151710207456157.
        let x = (1...20).map(Double.init)
        let test = try MannWhitneyUTest(x, x.map { $0 + 4.5 })
        XCTAssertEqual(test.u, 120)
        XCTAssertEqual(test.method, .exact)
        XCTAssertEqual(test.pValue, 0.030411256038764864, accuracy: 1e-14)
    }

    // MARK: Normal approximation

    func testTiesUseCorrectedNormalApproximation() throws {
        // Pooled, sorted: 1x 2x 2x 2y 3x 3y 4x 5y 6y 6y.
        // Midranks: 1→1, 2→(2+3+4)/3 = 3, 3→(5+6)/2 = 5.5, 4→7, 5→8, 6→9.5.
        // R₁ = 1 + 3 + 3 + 5.5 + 7 = 19.5 → U₁ = 19.5 − 15 = 4.5.
        // Ties: t = 3, 2, 2 → Σ(t³ − t) = 24 + 6 + 6 = 36.
        // σ² = 25/12 · (11 − 36/90) = 22.083333…, σ = 4.699291…
        // z = (|4.5 − 12.5| − 0.5)/σ = 7.5/σ = 1.595986… → p = 2·(1 − Φ(z)) = 0.11049202405566802.
        let test = try MannWhitneyUTest([1, 2, 2, 3, 4], [2, 3, 5, 6, 6])
        XCTAssertEqual(test.u, 4.5)
        XCTAssertTrue(test.hasTies)
        XCTAssertEqual(test.method, .normalApproximation)
        XCTAssertEqual(try XCTUnwrap(test.zScore), -7.5 / (22.083333333333333).squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(test.pValue, 0.11049202405566802, accuracy: 1e-12)
    }

    func testConstantButDifferentSamples() throws {
        // Integer counters: x all 12, y all 10 → U₁ = 25 (every pair x > y).
        // Ties: two groups of 5 → Σ(t³ − t) = 240; σ² = 25/12 · (11 − 240/90) = 17.361…,
        // σ = 4.1667; z = (12.5 − 0.5)/σ = 2.88 → p = 0.003976751709788651.
        let test = try MannWhitneyUTest([12, 12, 12, 12, 12], [10, 10, 10, 10, 10])
        XCTAssertEqual(test.u, 25)
        XCTAssertEqual(test.method, .normalApproximation)
        XCTAssertEqual(try XCTUnwrap(test.zScore), 2.88, accuracy: 1e-12)
        XCTAssertEqual(test.pValue, 0.003976751709788651, accuracy: 1e-12)
    }

    func testAllValuesIdenticalGivesPValueOne() throws {
        // Zero tie-corrected variance: no evidence of any difference.
        let test = try MannWhitneyUTest([3, 3, 3, 3, 3], [3, 3, 3, 3, 3])
        XCTAssertEqual(test.u, 12.5)
        XCTAssertEqual(test.pValue, 1)
        XCTAssertEqual(test.zScore, 0)
    }

    func testLargerSampleUsesNormalApproximation() throws {
        // x = 1...25, y = x + 10.5 (no ties, but 25 > 20 per side).
        // x = i beats y_j iff j ≤ i − 11 → U₁ = 1 + … + 14 = 105.
        // μ = 625/2 = 312.5, σ² = 625 · 51/12 = 2656.25, σ = 51.538820…
        // z = (207.5 − 0.5)/σ = 4.016389… → p = 2·(1 − Φ(z)) = 5.909644085596015e-05.
        let x = (1...25).map(Double.init)
        let test = try MannWhitneyUTest(x, x.map { $0 + 10.5 })
        XCTAssertEqual(test.u, 105)
        XCTAssertFalse(test.hasTies)
        XCTAssertEqual(test.method, .normalApproximation)
        XCTAssertEqual(try XCTUnwrap(test.zScore), -207 / 2656.25.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(test.pValue, 5.909644085596015e-05, accuracy: 1e-15)
    }

    func testContinuityCorrectionNeverOvershootsOne() throws {
        // x = {1, 5, 5, 8} vs y = {2, 3, 6, 7}: 1 beats none, each 5 beats 2 and 3,
        // 8 beats all four → U₁ = 0 + 2 + 2 + 4 = 8 = μ = 16/2. The tie (5, 5)
        // forces the approximation; the continuity-corrected deviation is
        // clamped at 0 rather than going negative, so p = 1 (SciPy clips too).
        let test = try MannWhitneyUTest([1, 5, 5, 8], [2, 3, 6, 7])
        XCTAssertEqual(test.method, .normalApproximation)
        XCTAssertEqual(test.u, 8)
        XCTAssertEqual(test.pValue, 1)
    }

    // MARK: Input errors

    func testRejectsEmptyAndNonFinite() {
        XCTAssertThrowsError(try MannWhitneyUTest([], [1, 2])) { error in
            guard case StatisticsError.emptySample("first") = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try MannWhitneyUTest([1, 2], [3, .infinity])) { error in
            guard case let StatisticsError.nonFiniteValue(sample, index, value) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(sample, "second")
            XCTAssertEqual(index, 1)
            XCTAssertEqual(value, .infinity)
        }
    }
}
