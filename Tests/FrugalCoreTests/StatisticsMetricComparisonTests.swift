import Foundation
import XCTest
@testable import FrugalCore

final class StatisticsMetricComparisonTests: XCTestCase {
    private let base: [Double] = [10.1, 9.9, 10.3, 10.0, 9.8]
    private let tenfold: [Double] = [101, 99, 103, 100, 98]

    // MARK: Regressions and improvements

    func testTenfoldSlowdownRegresses() throws {
        // Medians 10.0 → 100: Δ = 90, relative 9.0 (+900 %). Fully separated
        // 5 vs 5 → exact p = 2/252. Every bootstrap difference is
        // ≥ min(head) − max(base) = 98 − 10.3 > 0, so the interval excludes 0.
        let comparison = try MetricComparison(base: base, head: tenfold, direction: .lowerIsBetter)
        XCTAssertEqual(comparison.verdict, .regressed, comparison.reason)
        XCTAssertEqual(try XCTUnwrap(comparison.absoluteChange), 90, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(comparison.relativeChange), 9, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(comparison.pValue), 2.0 / 252.0, accuracy: 1e-15)
        XCTAssertEqual(comparison.rankTest?.method, .exact)
        XCTAssertEqual(comparison.rankTest?.u, 25, "u counts head > base pairs")
        XCTAssertEqual(comparison.base?.median, 10.0)
        XCTAssertEqual(comparison.head?.median, 100)
        XCTAssertTrue(comparison.isSignificant)
        XCTAssertTrue(comparison.exceedsMinimumEffect)
        XCTAssertTrue(comparison.intervalExcludesZero)
        XCTAssertGreaterThan(try XCTUnwrap(comparison.interval).lower, 0)
        XCTAssertTrue(comparison.reason.hasPrefix("worse: median Δ = +90 (+900.00%)"), comparison.reason)
    }

    func testDirectionDecidesRegressionOrImprovement() throws {
        let throughput = try MetricComparison(base: base, head: tenfold, direction: .higherIsBetter)
        XCTAssertEqual(throughput.verdict, .improved, throughput.reason)
        let faster = try MetricComparison(base: tenfold, head: base, direction: .lowerIsBetter)
        XCTAssertEqual(faster.verdict, .improved, faster.reason)
        XCTAssertEqual(try XCTUnwrap(faster.relativeChange), -0.9, accuracy: 1e-12)
        let slower = try MetricComparison(base: tenfold, head: base, direction: .higherIsBetter)
        XCTAssertEqual(slower.verdict, .regressed, slower.reason)
    }

    func testConstantIntegerCountersThatDiffer() throws {
        // Allocation counts 10 → 12 in every repetition: ties force the normal
        // approximation, p = 0.003976751709788651 (see the Mann–Whitney tests);
        // Δ = 2, +20 %; every bootstrap difference is exactly 2.
        let comparison = try MetricComparison(base: [10, 10, 10, 10, 10], head: [12, 12, 12, 12, 12], direction: .lowerIsBetter)
        XCTAssertEqual(comparison.verdict, .regressed, comparison.reason)
        XCTAssertEqual(try XCTUnwrap(comparison.pValue), 0.003976751709788651, accuracy: 1e-12)
        XCTAssertEqual(comparison.rankTest?.method, .normalApproximation)
        XCTAssertEqual(comparison.interval?.lower, 2)
        XCTAssertEqual(comparison.interval?.upper, 2)
        XCTAssertEqual(comparison.relativeChange, 0.2)
    }

    // MARK: Unchanged

    func testIdenticalConstantSamplesAreUnchangedWithPValueOne() throws {
        let comparison = try MetricComparison(base: [5, 5, 5, 5, 5], head: [5, 5, 5, 5, 5], direction: .lowerIsBetter)
        XCTAssertEqual(comparison.verdict, .unchanged)
        XCTAssertEqual(comparison.pValue, 1)
        XCTAssertEqual(comparison.absoluteChange, 0)
        XCTAssertEqual(comparison.relativeChange, 0)
        XCTAssertFalse(comparison.isSignificant)
        XCTAssertFalse(comparison.exceedsMinimumEffect)
        XCTAssertTrue(comparison.reason.hasPrefix("not significant: p = 1 (normalApproximation) > α = 0.05"), comparison.reason)
    }

    func testInterleavedSamplesAreNotSignificant() throws {
        // Exact p = 174/252 ≈ 0.69 (see the Mann–Whitney tests).
        // Not significant, but the Hodges–Lehmann interval of the shift (about ±6) contains the
        // threshold (5 % of 5): too noisy to tell, which is what the three answers call it.
        let comparison = try MetricComparison(base: [1, 3, 5, 7, 9], head: [2, 4, 6, 8, 10], direction: .lowerIsBetter)
        XCTAssertFalse(comparison.isSignificant)
        XCTAssertEqual(comparison.verdict, .inconclusive, comparison.reason)
        XCTAssertEqual(try XCTUnwrap(comparison.pValue), 0.6904761904761905, accuracy: 1e-15)
        XCTAssertTrue(comparison.exceedsMinimumEffect, "Δ = +1 on a median of 5 is +20 %, but not significant")
    }

    func testSignificantButTinyChangeIsBelowDefaultEffectFloor() throws {
        // Fully separated (p = 2/252) but medians 100.2 → 101.2: +1.0, ≈ +1 %.
        let slow: [Double] = [100.0, 100.1, 100.2, 100.3, 100.4]
        let slower: [Double] = [101.0, 101.1, 101.2, 101.3, 101.4]
        let comparison = try MetricComparison(base: slow, head: slower, direction: .lowerIsBetter)
        XCTAssertEqual(comparison.verdict, .unchanged)
        XCTAssertTrue(comparison.isSignificant)
        XCTAssertFalse(comparison.exceedsMinimumEffect)
        XCTAssertTrue(comparison.reason.hasPrefix("below minimum effect:"), comparison.reason)
        XCTAssertTrue(comparison.reason.contains("minimum relative change 5%"), comparison.reason)

        let sensitive = try MetricComparison(
            base: slow, head: slower, direction: .lowerIsBetter, policy: ComparisonPolicy(minRelativeChange: 0.005))
        XCTAssertEqual(sensitive.verdict, .regressed, sensitive.reason)
    }

    func testAbsoluteAndRelativeGatesMustBothPass() throws {
        let slow: [Double] = [100.0, 100.1, 100.2, 100.3, 100.4]
        let slower: [Double] = [101.0, 101.1, 101.2, 101.3, 101.4] // Δ = 1.0, ≈ 1 %
        func verdict(relative: Double?, absolute: Double?) throws -> RegressionVerdict {
            let policy = ComparisonPolicy(minRelativeChange: relative, minAbsoluteChange: absolute)
            return try MetricComparison(base: slow, head: slower, direction: .lowerIsBetter, policy: policy).verdict
        }
        XCTAssertEqual(try verdict(relative: nil, absolute: 0.5), .regressed)
        XCTAssertEqual(try verdict(relative: nil, absolute: 2), .unchanged)
        XCTAssertEqual(try verdict(relative: 0.005, absolute: 0.5), .regressed)
        XCTAssertEqual(try verdict(relative: 0.005, absolute: 2), .unchanged, "absolute gate fails")
        XCTAssertEqual(try verdict(relative: 0.02, absolute: 0.5), .unchanged, "relative gate fails")
        XCTAssertEqual(try verdict(relative: nil, absolute: nil), .regressed, "no floor: significance and interval decide")
    }

    func testBootstrapIntervalGateCanVeto() throws {
        // Heavy ties: the rank test is significant and the medians move a lot,
        // yet a resample often lands on "no change", so the interval touches 0.
        // base: seven 1s and a 2 (median 1); head: three 1s, five 9s (median 9); Δ = +8.
        // Pooled midranks: ten 1s → 5.5, the 2 → 11, five 9s → 14.
        // R_head = 3·5.5 + 5·14 = 86.5 → U = 86.5 − 36 = 50.5, μ = 32.
        // Σ(t³ − t) = 990 + 120 = 1110 → σ² = 64/12 · (17 − 1110/240) = 66.
        // z = (18.5 − 0.5)/√66 = 2.2156 → p ≈ 0.0267 ≤ 0.05.
        // A head resample has ≥ 5 of the 1s with probability ≈ 0.15 (each draw is
        // a 1 with p = 3/8), which makes its median 1 and the difference 0, so
        // the 2.5 % quantile of the differences is exactly 0.
        let comparison = try MetricComparison(
            base: [1, 1, 1, 1, 1, 2, 1, 1],
            head: [1, 1, 1, 9, 9, 9, 9, 9],
            direction: .lowerIsBetter)
        XCTAssertEqual(comparison.rankTest?.u, 50.5)
        XCTAssertEqual(try XCTUnwrap(comparison.pValue), 2 * MannWhitneyUTest.normalSurvival(18 / 66.0.squareRoot()), accuracy: 1e-15)
        XCTAssertTrue(comparison.isSignificant, comparison.reason)
        XCTAssertTrue(comparison.exceedsMinimumEffect)
        XCTAssertEqual(comparison.interval?.lower, 0)
        XCTAssertFalse(comparison.intervalExcludesZero, comparison.reason)
        // The bootstrap vetoes "regressed"; the shift's interval [0, 8] contains the threshold
        // (5 % of 1), so the answer is inconclusive, not unchanged.
        XCTAssertEqual(comparison.verdict, .inconclusive)
        XCTAssertTrue(comparison.reason.contains("interval [+0, +8] contains the practical threshold +0.05"), comparison.reason)
    }

    // MARK: Zero baselines

    func testZeroBaselineUsesAbsoluteChange() throws {
        // Base median 0 → relative change undefined (nil). Δ = 1.
        // Ties: five 0s, four 1s, one 2 → Σ(t³ − t) = 120 + 60 = 180;
        // σ² = 25/12 · (11 − 180/90) = 18.75; U = 25 → z = 12/√18.75 = 2.771 → p ≈ 0.0056.
        let zeros: [Double] = [0, 0, 0, 0, 0]
        let leaks: [Double] = [1, 1, 2, 1, 1]
        let comparison = try MetricComparison(base: zeros, head: leaks, direction: .lowerIsBetter)
        XCTAssertNil(comparison.relativeChange)
        XCTAssertEqual(comparison.absoluteChange, 1)
        XCTAssertEqual(try XCTUnwrap(comparison.pValue), 2 * MannWhitneyUTest.normalSurvival(12 / 18.75.squareRoot()), accuracy: 1e-15)
        XCTAssertEqual(comparison.verdict, .regressed, "any non-zero change is infinite relative to 0")
        XCTAssertTrue(comparison.reason.contains("relative change undefined"), comparison.reason)

        let withFloor = try MetricComparison(
            base: zeros, head: leaks, direction: .lowerIsBetter, policy: ComparisonPolicy(minAbsoluteChange: 1.5))
        // Below the 1.5 floor by its median change, but the shift's interval [1, 2] contains 1.5:
        // inconclusive, never "unchanged".
        XCTAssertFalse(withFloor.exceedsMinimumEffect)
        XCTAssertEqual(withFloor.verdict, .inconclusive)
        XCTAssertTrue(withFloor.reason.contains("interval [+1, +2] contains the practical threshold +1.5"), withFloor.reason)
    }

    // MARK: Insufficient data

    func testTooFewRepetitionsAreInsufficientNotUnchanged() throws {
        // 3 vs 3 can never reach p < 0.1, even for a tenfold change.
        let comparison = try MetricComparison(base: [10, 10.2, 9.9], head: [100, 101, 99], direction: .lowerIsBetter)
        XCTAssertEqual(comparison.verdict, .insufficientData)
        XCTAssertNil(comparison.pValue)
        XCTAssertNil(comparison.interval)
        XCTAssertEqual(comparison.base?.median, 10)
        XCTAssertEqual(comparison.absoluteChange, 90, "summaries are still reported")
        XCTAssertEqual(
            comparison.reason, "insufficient repetitions: base has 3, head has 3; need \(ComparisonPolicy.default.repetitionRule)")

        // 4 against 5: two swapped pairs give p = 8/126 ≈ 0.063 > 0.05.
        let uneven = try MetricComparison(base: base, head: [100, 101, 99, 98], direction: .lowerIsBetter)
        XCTAssertEqual(uneven.verdict, .insufficientData)
    }

    /// One fewer on a side is enough against a side large enough that two swapped pairs stay
    /// significant, as 5 against 5 (p = 8/252 ≈ 0.032): CI's 4 runs against a baseline of 10.
    func testFourAgainstABaselineOfTenIsAsRobustAsFiveAgainstFive() throws {
        let policy = ComparisonPolicy.default
        XCTAssertTrue(policy.repetitionsSuffice(base: 5, head: 5))
        XCTAssertTrue(policy.repetitionsSuffice(base: 10, head: 4))
        XCTAssertTrue(policy.repetitionsSuffice(base: 6, head: 4), "8/210 ≈ 0.038")
        XCTAssertFalse(policy.repetitionsSuffice(base: 5, head: 4), "8/126 ≈ 0.063")
        XCTAssertFalse(policy.repetitionsSuffice(base: 4, head: 4))
        XCTAssertFalse(policy.repetitionsSuffice(base: 30, head: 3), "never fewer than one under the minimum")
        XCTAssertEqual(ComparisonPolicy.twoSwappedPairsPValue(5, 5), 8.0 / 252, accuracy: 1e-12)
        XCTAssertEqual(ComparisonPolicy.twoSwappedPairsPValue(4, 10), 8.0 / 1001, accuracy: 1e-12)

        let baseline: [Double] = [10, 10.2, 9.9, 10.1, 10, 9.8, 10.3, 10.05, 9.95, 10.15]
        let regressed = try MetricComparison(base: baseline, head: [12, 12.1, 11.9, 12.2], direction: .lowerIsBetter)
        XCTAssertEqual(regressed.verdict, .regressed, regressed.reason)
        // Two of the head's four among the baseline's values: U = 2, still significant.
        let swapped = try MetricComparison(base: baseline, head: [10.12, 10.25, 12, 12.1], direction: .lowerIsBetter)
        XCTAssertNotEqual(swapped.verdict, .insufficientData, swapped.reason)
        let same = try MetricComparison(base: baseline, head: [10, 10.1, 9.9, 10.05], direction: .lowerIsBetter)
        XCTAssertEqual(same.verdict, .unchanged, same.reason)
    }

    func testLoweredMinimumStillRefusesUnreachableSignificance() throws {
        let lenient = ComparisonPolicy(minimumRepetitions: 3)
        let three = try MetricComparison(base: [10, 10.2, 9.9], head: [100, 101, 99], direction: .lowerIsBetter, policy: lenient)
        XCTAssertEqual(three.verdict, .insufficientData)
        XCTAssertTrue(three.reason.contains("smallest possible p-value is 0.1 > α = 0.05"), three.reason)

        // 4 vs 4 fully separated: p = 2/70 ≈ 0.029 ≤ 0.05 → allowed when opted in.
        let four = try MetricComparison(
            base: [10, 10.2, 9.9, 10.1], head: [100, 101, 99, 102], direction: .lowerIsBetter,
            policy: ComparisonPolicy(minimumRepetitions: 4))
        XCTAssertEqual(four.verdict, .regressed, four.reason)

        // A stricter α makes even 5 vs 5 (floor 2/252 ≈ 0.0079) insufficient.
        let strict = try MetricComparison(base: base, head: tenfold, direction: .lowerIsBetter, policy: ComparisonPolicy(alpha: 0.005))
        XCTAssertEqual(strict.verdict, .insufficientData)
    }

    func testEmptySampleIsInsufficient() throws {
        let comparison = try MetricComparison(base: [], head: tenfold, direction: .lowerIsBetter)
        XCTAssertEqual(comparison.verdict, .insufficientData)
        XCTAssertNil(comparison.base)
        XCTAssertNotNil(comparison.head)
        XCTAssertNil(comparison.absoluteChange)
    }

    // MARK: Errors

    func testNonFiniteValuesThrowNamingTheValue() {
        XCTAssertThrowsError(try MetricComparison(base: base, head: [1, 2, 3, .nan, 5], direction: .lowerIsBetter)) { error in
            guard case let StatisticsError.nonFiniteValue(sample, index, value) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(sample, "head")
            XCTAssertEqual(index, 3)
            XCTAssertTrue(value.isNaN)
            XCTAssertEqual(error.localizedDescription, "head[3] is nan; statistics need finite values")
        }
        // Rejected even when the sample would be too small to test anyway.
        XCTAssertThrowsError(try MetricComparison(base: [.infinity], head: [1], direction: .higherIsBetter)) { error in
            XCTAssertEqual("\(error)", "base[0] is inf; statistics need finite values")
        }
    }

    func testInvalidPolicyThrows() {
        let policies = [
            ComparisonPolicy(alpha: 0),
            ComparisonPolicy(alpha: 1.5),
            ComparisonPolicy(minRelativeChange: -0.1),
            ComparisonPolicy(minAbsoluteChange: .nan),
            ComparisonPolicy(minimumRepetitions: 0),
            ComparisonPolicy(bootstrapConfidence: 1),
            ComparisonPolicy(bootstrapResamples: 0),
        ]
        for policy in policies {
            XCTAssertThrowsError(try MetricComparison(base: base, head: tenfold, direction: .lowerIsBetter, policy: policy)) { error in
                guard case StatisticsError.invalidParameter = error else { return XCTFail("\(error)") }
            }
        }
    }

    // MARK: Configuration and serialisation

    func testBootstrapConfidenceFollowsAlphaByDefault() throws {
        let comparison = try MetricComparison(base: base, head: tenfold, direction: .lowerIsBetter, policy: ComparisonPolicy(alpha: 0.1))
        XCTAssertEqual(try XCTUnwrap(comparison.interval).confidence, 0.9, accuracy: 1e-15)
        let explicit = try MetricComparison(
            base: base, head: tenfold, direction: .lowerIsBetter, policy: ComparisonPolicy(bootstrapConfidence: 0.99))
        XCTAssertEqual(explicit.interval?.confidence, 0.99)
    }

    func testSameInputSameResult() throws {
        let first = try MetricComparison(base: [1.3, 2.9, 3.1, 4.7, 5.05], head: [2.2, 3.35, 5.9, 7.15, 8.8], direction: .lowerIsBetter)
        let second = try MetricComparison(base: [1.3, 2.9, 3.1, 4.7, 5.05], head: [2.2, 3.35, 5.9, 7.15, 8.8], direction: .lowerIsBetter)
        XCTAssertEqual(first, second)
    }

    func testCodableRoundTrip() throws {
        for comparison in [
            try MetricComparison(base: base, head: tenfold, direction: .lowerIsBetter),
            try MetricComparison(base: [], head: [1, 2], direction: .higherIsBetter),
            try MetricComparison(base: [0, 0, 0, 0, 0], head: [1, 1, 2, 1, 1], direction: .lowerIsBetter),
        ] {
            let data = try JSONEncoder().encode(comparison)
            XCTAssertEqual(try JSONDecoder().decode(MetricComparison.self, from: data), comparison)
        }
    }
}
