import Foundation
import XCTest
@testable import FrugalCore

final class StatisticsBootstrapTests: XCTestCase {
    private let base: [Double] = [1.3, 2.9, 3.1, 4.7, 5.05]
    private let head: [Double] = [2.2, 3.35, 5.9, 7.15, 8.8, 9.45]

    func testSameSeedGivesIdenticalInterval() throws {
        let first = try BootstrapInterval(base: base, head: head, seed: 1234)
        let second = try BootstrapInterval(base: base, head: head, seed: 1234)
        XCTAssertEqual(first, second)
        // Observed medians: base 3.1, head (5.9 + 7.15)/2 = 6.525 → Δ = 3.425.
        XCTAssertEqual(first.observedDifference, 3.425, accuracy: 1e-12)
        XCTAssertEqual(first.resamples, 2000)
        XCTAssertEqual(first.confidence, 0.95)
        XCTAssertEqual(first.seed, 1234)
    }

    func testDifferentSeedsGiveDifferentResampling() throws {
        // With few resamples the quantiles are sensitive to the exact draws.
        let intervals = try (1...5).map { try BootstrapInterval(base: base, head: head, confidence: 0.9, resamples: 25, seed: UInt64($0)) }
        XCTAssertGreaterThan(Set(intervals.map { [$0.lower, $0.upper] }).count, 1)
    }

    func testGoldenValues() throws {
        // From an independent Python transcription (same generator, draw order,
        // NumPy median and NumPy's default linear quantile).
        let standard = try BootstrapInterval(base: base, head: head)
        XCTAssertEqual(standard.lower, -1.35, accuracy: 1e-12)
        XCTAssertEqual(standard.upper, 6.225, accuracy: 1e-12)

        let custom = try BootstrapInterval(base: base, head: head, confidence: 0.9, resamples: 999, seed: 7)
        XCTAssertEqual(custom.lower, -0.32499999999999973, accuracy: 1e-12)
        XCTAssertEqual(custom.upper, 5.8500000000000005, accuracy: 1e-12)

        let narrow = try BootstrapInterval(base: base, head: head, confidence: 0.8, resamples: 1001, seed: 123_456_789)
        XCTAssertEqual(narrow.lower, 0.25, accuracy: 1e-12)
        XCTAssertEqual(narrow.upper, 5.2, accuracy: 1e-12)
        XCTAssertTrue(narrow.excludesZero)
        XCTAssertFalse(standard.excludesZero)
    }

    func testIdenticalSamplesContainZero() throws {
        let values: [Double] = [10.2, 9.8, 10.5, 10.1, 9.9]
        let interval = try BootstrapInterval(base: values, head: values)
        XCTAssertTrue(interval.contains(0))
        XCTAssertFalse(interval.excludesZero)
        XCTAssertEqual(interval.observedDifference, 0)
        XCTAssertLessThan(interval.lower, 0)
        XCTAssertGreaterThan(interval.upper, 0)
    }

    func testConstantSamplesGiveDegenerateInterval() throws {
        // Every resample median is 10 and 12 → every difference is exactly 2.
        let interval = try BootstrapInterval(base: [10, 10, 10, 10, 10], head: [12, 12, 12, 12, 12])
        XCTAssertEqual(interval.lower, 2)
        XCTAssertEqual(interval.upper, 2)
        XCTAssertTrue(interval.excludesZero)
        let same = try BootstrapInterval(base: [5, 5, 5], head: [5, 5, 5])
        XCTAssertEqual([same.lower, same.upper], [0, 0])
        XCTAssertFalse(same.excludesZero)
    }

    func testIntervalStaysWithinPossibleDifferences() throws {
        // A resample median lies within [min, max] of its sample, so every
        // bootstrap difference lies in [min(head) − max(base), max(head) − min(base)].
        var generator = Xoshiro256StarStar(seed: 5)
        for trial in 0..<20 {
            let b = (0..<5).map { _ in 100 + 10 * generator.nextUnitInterval() }
            let h = (0..<7).map { _ in 95 + 20 * generator.nextUnitInterval() }
            let interval = try BootstrapInterval(base: b, head: h, resamples: 300, seed: UInt64(trial))
            XCTAssertLessThanOrEqual(interval.lower, interval.upper)
            XCTAssertGreaterThanOrEqual(interval.lower, h.min()! - b.max()!)
            XCTAssertLessThanOrEqual(interval.upper, h.max()! - b.min()!)
        }
    }

    func testCoverageUnderTheNullIsSane() throws {
        // 200 pairs of 5 vs 5 from the same normal distribution: a 95 %
        // interval should contain the true difference (0) most of the time.
        // Percentile intervals of a 5-value median are rough, so demand ≥ 90 %
        // rather than exactly 95 %; a broken interval (e.g. quantiles swapped
        // or resampling one side only) falls far below that.
        var generator = Xoshiro256StarStar(seed: 0xC0FFEE)
        var covered = 0
        for trial in 0..<200 {
            let b = (0..<5).map { _ in 50 + 2 * generator.nextGaussian() }
            let h = (0..<5).map { _ in 50 + 2 * generator.nextGaussian() }
            let interval = try BootstrapInterval(base: b, head: h, resamples: 500, seed: UInt64(trial))
            if interval.contains(0) { covered += 1 }
        }
        XCTAssertGreaterThanOrEqual(covered, 180, "covered \(covered)/200")
    }

    func testRejectsBadInput() {
        XCTAssertThrowsError(try BootstrapInterval(base: [], head: [1])) { error in
            guard case StatisticsError.emptySample("base") = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try BootstrapInterval(base: [1], head: [2, .nan])) { error in
            guard case StatisticsError.nonFiniteValue("head", 1, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try BootstrapInterval(base: [1], head: [2], confidence: 1))
        XCTAssertThrowsError(try BootstrapInterval(base: [1], head: [2], resamples: 0))
    }

    func testCodableRoundTripKeepsSeed() throws {
        let interval = try BootstrapInterval(base: base, head: head, resamples: 100, seed: .max)
        let decoded = try JSONDecoder().decode(BootstrapInterval.self, from: JSONEncoder().encode(interval))
        XCTAssertEqual(decoded, interval)
        XCTAssertEqual(decoded.seed, .max)
    }
}
