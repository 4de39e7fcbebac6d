import Foundation
import XCTest
@testable import FrugalCore

extension Xoshiro256StarStar {
    /// Standard normal draw (Box–Muller). Test-only: simulated measurements.
    mutating func nextGaussian() -> Double {
        // 1 − u lies in (0, 1], so the logarithm is finite.
        let radius = (-2 * log(1 - nextUnitInterval())).squareRoot()
        return radius * cos(2 * Double.pi * nextUnitInterval())
    }
}

/// Simulates many base/head pairs to check the comparison's error rates:
/// it must not cry wolf on pure noise, and must catch real shifts.
final class StatisticsNoiseSimulationTests: XCTestCase {
    private let pairs = 200

    /// Counts verdicts over `pairs` simulated comparisons. Each pair draws
    /// 5 base and 5 head values; the bootstrap seed is fixed (the default),
    /// as it is in CI.
    private func tally(
        seed: UInt64,
        direction: MetricDirection = .lowerIsBetter,
        policy: ComparisonPolicy = .default,
        base drawBase: (inout Xoshiro256StarStar) -> Double,
        head drawHead: (inout Xoshiro256StarStar) -> Double
    ) throws -> [RegressionVerdict: Int] {
        var generator = Xoshiro256StarStar(seed: seed)
        var counts: [RegressionVerdict: Int] = [:]
        for _ in 0..<pairs {
            let base = (0..<5).map { _ in drawBase(&generator) }
            let head = (0..<5).map { _ in drawHead(&generator) }
            let comparison = try MetricComparison(base: base, head: head, direction: direction, policy: policy)
            counts[comparison.verdict, default: 0] += 1
        }
        return counts
    }

    /// Normal timing noise: mean 100, σ 5 (5 % coefficient of variation).
    private static func normalNoise(_ g: inout Xoshiro256StarStar) -> Double {
        100 + 5 * g.nextGaussian()
    }

    /// Skewed timing noise with CI-style hiccups: log-normal around 100 with
    /// ~10 % spread, and 1 repetition in 10 slowed down by 30–80 %.
    private static func skewedNoise(_ g: inout Xoshiro256StarStar) -> Double {
        let value = 100 * exp(0.1 * g.nextGaussian())
        let hiccup = g.nextUnitInterval() < 0.1 ? 1.3 + 0.5 * g.nextUnitInterval() : 1
        return value * hiccup
    }

    func testNoFalseAlarmsOnNormalNoiseWithDefaultPolicy() throws {
        let counts = try tally(seed: 1, base: Self.normalNoise, head: Self.normalNoise)
        let regressed = counts[.regressed, default: 0]
        XCTAssertLessThanOrEqual(Double(regressed) / Double(pairs), 0.05, "\(counts)")
        XCTAssertLessThanOrEqual(Double(regressed + counts[.improved, default: 0]) / Double(pairs), 0.05, "\(counts)")
        XCTAssertEqual(counts[.insufficientData, default: 0], 0)
    }

    func testNoFalseAlarmsWithoutEffectFloor() throws {
        // Without an effect-size floor only the rank test and the bootstrap
        // interval stand between noise and an alarm.
        let policy = ComparisonPolicy(minRelativeChange: nil)
        for (seed, noise) in [(UInt64(2), Self.normalNoise), (UInt64(3), Self.skewedNoise)] {
            let counts = try tally(seed: seed, policy: policy, base: noise, head: noise)
            XCTAssertLessThanOrEqual(Double(counts[.regressed, default: 0]) / Double(pairs), 0.05, "seed \(seed): \(counts)")
            XCTAssertLessThanOrEqual(
                Double(counts[.regressed, default: 0] + counts[.improved, default: 0]) / Double(pairs), 0.05,
                "seed \(seed): \(counts)")
        }
    }

    func testRankTestAloneIsCalibratedOnNoise() throws {
        // The rank test by itself must hold its level: for 5 vs 5 continuous
        // data P(p ≤ 0.05) = P(U ≤ 2 or U ≥ 23) = 2·(1 + 1 + 2)/252 ≈ 0.0317.
        // No bootstrap here, so 2000 null pairs are cheap and make the check
        // sharp: expected 63.5 hits, binomial σ ≈ 7.8, so ≤ 5 % (100) and
        // ≥ 1.5 % (30) are both > 4σ away. An anti-conservative p-value (e.g.
        // one-sided) gives P(p ≤ 0.1) = 24/252 ≈ 9.5 % and fails; a test that is
        // never significant fails the lower bound.
        let trials = 2000
        for (seed, noise) in [(UInt64(10), Self.normalNoise), (UInt64(11), Self.skewedNoise)] {
            var generator = Xoshiro256StarStar(seed: seed)
            var significant = 0
            for _ in 0..<trials {
                let base = (0..<5).map { _ in noise(&generator) }
                let head = (0..<5).map { _ in noise(&generator) }
                if try MannWhitneyUTest(head, base).pValue <= 0.05 { significant += 1 }
            }
            let rate = Double(significant) / Double(trials)
            XCTAssertLessThanOrEqual(rate, 0.05, "seed \(seed): \(significant)/\(trials)")
            XCTAssertGreaterThanOrEqual(rate, 0.015, "seed \(seed): \(significant)/\(trials)")
        }
    }

    func testNoFalseAlarmsOnSkewedNoiseWithOutliers() throws {
        let counts = try tally(seed: 4, base: Self.skewedNoise, head: Self.skewedNoise)
        XCTAssertLessThanOrEqual(Double(counts[.regressed, default: 0]) / Double(pairs), 0.05, "\(counts)")
    }

    func testTenfoldSlowdownIsDetected() throws {
        let counts = try tally(seed: 5, base: Self.skewedNoise, head: { 10 * Self.skewedNoise(&$0) })
        XCTAssertGreaterThanOrEqual(Double(counts[.regressed, default: 0]) / Double(pairs), 0.95, "\(counts)")
        XCTAssertEqual(counts[.improved, default: 0], 0)
    }

    func testModerateSlowdownIsDetected() throws {
        // +30 % on 5 % normal noise is a 6σ shift: nearly always separated.
        let counts = try tally(seed: 6, base: Self.normalNoise, head: { 1.3 * Self.normalNoise(&$0) })
        XCTAssertGreaterThanOrEqual(Double(counts[.regressed, default: 0]) / Double(pairs), 0.95, "\(counts)")
    }

    func testThroughputDropIsARegressionWhenHigherIsBetter() throws {
        let counts = try tally(
            seed: 7, direction: .higherIsBetter,
            base: Self.skewedNoise, head: { Self.skewedNoise(&$0) / 10 })
        XCTAssertGreaterThanOrEqual(Double(counts[.regressed, default: 0]) / Double(pairs), 0.95, "\(counts)")
    }

    func testTenfoldSpeedupIsAnImprovement() throws {
        let counts = try tally(seed: 8, base: Self.skewedNoise, head: { Self.skewedNoise(&$0) / 10 })
        XCTAssertGreaterThanOrEqual(Double(counts[.improved, default: 0]) / Double(pairs), 0.95, "\(counts)")
        XCTAssertEqual(counts[.regressed, default: 0], 0)
    }

    func testChangeBelowEffectFloorIsNotFlagged() throws {
        // +2 % on 0.5 % noise is statistically obvious but below the default
        // 5 % floor: CI must not fail a build over it.
        let counts = try tally(
            seed: 9,
            base: { 100 + 0.5 * $0.nextGaussian() },
            head: { 102 + 0.5 * $0.nextGaussian() })
        XCTAssertEqual(counts[.unchanged, default: 0], pairs, "\(counts)")
    }
}
