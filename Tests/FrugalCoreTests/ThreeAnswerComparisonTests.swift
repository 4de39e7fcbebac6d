import XCTest
@testable import FrugalCore
import FrugalTestSupport

/// The Hodges–Lehmann shift and interval, the three answers (regressed, unchanged, inconclusive),
/// the count channel and the noise calibration, with numbers worked out by hand.
final class ThreeAnswerComparisonTests: XCTestCase {
    func testHodgesLehmannOfFiveAgainstFive() throws {
        // head − base over 1…5 and 6…10: the 25 differences are 1 (×1), 2 (×2), … 5 (×5), … 9 (×1).
        // Exact U for 5 vs 5: P(U ≤ 2) = 4/252 = 0.016 ≤ 0.025 < P(U ≤ 3) = 7/252, so k = 3:
        // the interval is [D₍₃₎, D₍₂₃₎] = [2, 8], the estimate the median difference 5.
        let shift = try XCTUnwrap(try HodgesLehmannShift(base: [1, 2, 3, 4, 5], head: [6, 7, 8, 9, 10]))
        XCTAssertEqual(shift.estimate, 5)
        XCTAssertEqual(shift.rank, 3)
        XCTAssertEqual(shift.lower, 2)
        XCTAssertEqual(shift.upper, 8)
    }

    func testThreeAgainstThreeHasNoNinetyFivePercentInterval() throws {
        // P(U = 0) = 1/20 = 0.05 > 0.025: no k reaches 95 %; "no interval", never a made-up one.
        XCTAssertNil(try HodgesLehmannShift(base: [1, 2, 3], head: [4, 5, 6]))
        XCTAssertNotNil(try HodgesLehmannShift(base: [1, 2, 3], head: [4, 5, 6], confidence: 0.8))
    }

    func testLargeSamplesUseTheNormalApproximation() {
        // 25 vs 25: 312.5 − 1.959964 × √(625 × 51 / 12) = 312.5 − 101.01 = 211.49 → k = 211.
        XCTAssertEqual(HodgesLehmannShift.lowerRank(firstCount: 25, secondCount: 25, alpha: 0.05), 211)
        XCTAssertEqual(HodgesLehmannShift.normalQuantile(0.975), 1.959964, accuracy: 1e-6)
    }

    private let tenPercent = ComparisonPolicy(minRelativeChange: 0.10)

    func testAClearShiftBeyondTheThresholdRegresses() throws {
        let comparison = try MetricComparison(base: [100, 101, 99, 102, 98], head: [150, 151, 149, 152, 148],
                                              direction: .lowerIsBetter, policy: tenPercent)
        XCTAssertEqual(comparison.verdict, .regressed, comparison.reason)
        XCTAssertEqual(comparison.threshold, 10)
        XCTAssertEqual(comparison.shift?.estimate, 50)
        XCTAssertTrue(comparison.reason.contains("Hodges–Lehmann shift +50"), comparison.reason)
    }

    func testAnIntervalContainingTheThresholdIsInconclusive() throws {
        // Base median 100, threshold 10; the head is about 12 higher but spread ±20: the interval
        // of the shift reaches from below 10 to well above it.
        let comparison = try MetricComparison(base: [100, 130, 90, 120, 80], head: [112, 142, 102, 132, 92, 150, 75],
                                              direction: .lowerIsBetter, policy: tenPercent)
        let shift = try XCTUnwrap(comparison.shift)
        XCTAssertTrue(shift.contains(10), "\(shift)")
        XCTAssertEqual(comparison.verdict, .inconclusive, comparison.reason)
        XCTAssertTrue(comparison.reason.hasPrefix("inconclusive: Hodges–Lehmann shift"), comparison.reason)
    }

    func testATightIntervalWithinTheThresholdIsUnchanged() throws {
        let comparison = try MetricComparison(base: [100, 101, 99, 100, 102], head: [100, 99, 101, 102, 100],
                                              direction: .lowerIsBetter, policy: tenPercent)
        XCTAssertEqual(comparison.verdict, .unchanged, comparison.reason)
        let shift = try XCTUnwrap(comparison.shift)
        XCTAssertLessThan(shift.upper, 10)
    }

    func testASignificantChangeWhoseIntervalReachesBelowTheThresholdDoesNotFail() throws {
        // Separated samples (p = 0.0079), median change +12 over a threshold of 10, but the
        // interval of the shift is [D₍₃₎, D₍₂₃₎] = [+6, +18]: a gate never fails on an interval containing it.
        let comparison = try MetricComparison(base: [96, 98, 100, 102, 104], head: [106, 110, 112, 114, 118],
                                              direction: .lowerIsBetter, policy: tenPercent)
        XCTAssertEqual(comparison.verdict, .inconclusive, comparison.reason)
    }

    func testADeterministicCounterIsJudgedExactly() throws {
        let moved = try XCTUnwrap(CountChannel.judge(name: "disk.writeSyscalls", base: Array(repeating: 40, count: 5),
                                                     head: Array(repeating: 41, count: 5), direction: .lowerIsBetter, minimumRepetitions: 5))
        XCTAssertEqual(moved.verdict, .regressed)
        XCTAssertEqual(moved.tolerance, 0)
        let within = try XCTUnwrap(CountChannel.judge(name: MetricName.cpuWakeups, base: Array(repeating: 10, count: 5),
                                                      head: Array(repeating: 12, count: 5), direction: .lowerIsBetter, minimumRepetitions: 5))
        XCTAssertEqual(within.verdict, .unchanged)
        // A counter that varied, or a timing, goes to the statistics.
        XCTAssertNil(CountChannel.judge(name: MetricName.cpuWakeups, base: [10, 10, 11, 10, 10], head: Array(repeating: 30, count: 5),
                                        direction: .lowerIsBetter, minimumRepetitions: 5))
        XCTAssertNil(CountChannel.judge(name: MetricName.cpuTimeSeconds, base: Array(repeating: 1, count: 5), head: Array(repeating: 2, count: 5),
                                        direction: .lowerIsBetter, minimumRepetitions: 5))
    }

    func testTheReportSaysWhichChannelEachGateUsed() throws {
        // cpu.wakeups 10 → 30 in every run: the exact count decides and gates; the audit's value
        // varies and goes through the statistics.
        let base = SyntheticReports.report(wakeups: [10, 10, 10, 10, 10], idleRates: [0.08, 0.09, 0.1, 0.11, 0.12])
        let head = SyntheticReports.report(wakeups: [30, 30, 30, 30, 30], idleRates: [0.08, 0.1, 0.09, 0.12, 0.11])
        let comparison = ReportComparator.compare(base: base, head: head, baseline: "b")
        let wakeups = try XCTUnwrap(comparison.results[0].metrics.first { $0.name == MetricName.cpuWakeups })
        XCTAssertEqual(wakeups.channel, .count)
        XCTAssertEqual(wakeups.verdict, .regressed, wakeups.reason)
        XCTAssertTrue(wakeups.reason.contains("exact count: 10 → 30"), wakeups.reason)
        let audit = try XCTUnwrap(comparison.results[0].audits.first)
        XCTAssertEqual(audit.channel, .statistics)
        XCTAssertEqual(comparison.regressions.map(\.name), [MetricName.cpuWakeups])
        // Against a stored baseline the count is held to the value's threshold (15 wakeups: a
        // session's drift); measured in one session (frugal ab) to its own tolerance of 2.
        XCTAssertEqual(wakeups.threshold, 15)
        let small = SyntheticReports.report(wakeups: [14, 14, 14, 14, 14], idleRates: [0.08, 0.1, 0.09, 0.12, 0.11])
        let stored = ReportComparator.compare(base: base, head: small, baseline: "b")
        XCTAssertEqual(stored.results[0].metrics.first { $0.name == MetricName.cpuWakeups }?.verdict, .unchanged)
        let session = ReportComparator.compare(base: base, head: small, baseline: "b", sameSession: true)
        let exact = try XCTUnwrap(session.results[0].metrics.first { $0.name == MetricName.cpuWakeups })
        XCTAssertEqual(exact.verdict, .regressed, exact.reason)
        XCTAssertEqual(exact.threshold, 2)
    }

    private let host = HostFingerprint(cpuModel: "AMD EPYC", cores: 2, kernel: "6.18", toolchain: "Swift version 6.3.1",
                                       cgroupVersion: "hybrid", stealPercent: 1)

    func testACalibrationWidensThresholdsToThreeTimesTheNoiseAndSaysSo() throws {
        // The audit's configured threshold is max(20 % of 0.1, 0.1/5) = 0.02/s; a calibrated
        // noise of 0.2/s widens it to 0.6/s, so a shift of about +0.4/s no longer regresses.
        let base = SyntheticReports.report(wakeups: [10, 12, 11, 13, 9], idleRates: [0.08, 0.09, 0.1, 0.11, 0.12])
        let head = SyntheticReports.report(wakeups: [11, 10, 12, 9, 13], idleRates: [0.48, 0.49, 0.5, 0.51, 0.52])
        let plain = ReportComparator.compare(base: base, head: head, baseline: "b")
        XCTAssertEqual(plain.regressions.map(\.name), ["power.avoid-polling"])
        let noise = NoiseCalibration.Entry(workload: "news.coalesced", scenario: "standard", kind: .audit, name: "power.avoid-polling",
                                           unit: "/s", count: 10, median: 0.1, mad: 0.135, noise: 0.2, cv: 2)
        let calibration = NoiseCalibration(generatedAt: "t", fingerprint: host, subject: "A/A", entries: [noise])
        let widened = ReportComparator.compare(base: base, head: head, baseline: "b", calibration: calibration)
        let entry = try XCTUnwrap(widened.results[0].audits.first)
        XCTAssertEqual(widened.regressions, [])
        XCTAssertNotEqual(entry.verdict, .regressed)
        XCTAssertEqual(try XCTUnwrap(entry.threshold), 0.6, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(entry.configuredThreshold), 0.02, accuracy: 1e-12)
        XCTAssertEqual(entry.noise, 0.2)
        XCTAssertTrue(entry.reason.contains("threshold widened from 0.02 to 3 × the calibrated noise 0.2"), entry.reason)
    }

    func testACalibrationFromAnotherFingerprintIsRefusedInOneLine() throws {
        let calibration = NoiseCalibration(generatedAt: "2026-11-26T10:00:00Z", fingerprint: host, subject: "A/A", entries: [])
        XCTAssertNil(calibration.refusal(on: host))
        var other = host
        other.kernel = "6.1"
        other.stealPercent = 30
        let refusal = try XCTUnwrap(calibration.refusal(on: other))
        XCTAssertFalse(refusal.contains("\n"))
        XCTAssertTrue(refusal.contains("kernel 6.18 vs 6.1"), refusal)
        XCTAssertTrue(refusal.contains("steal 1 % vs 30 %"), refusal)
        XCTAssertTrue(refusal.contains("refused for gating"), refusal)
    }

    func testNoiseIsMeasuredFromEveryRunOfOneBuild() throws {
        let report = SyntheticReports.report(wakeups: [10, 12, 11, 13, 9, 11], idleRates: [0, 0, 0, 0, 0, 0])
        let calibration = NoiseCalibration.measure(report, fingerprint: host, subject: "s", generatedAt: "t")
        let wakeups = try XCTUnwrap(calibration.entry(workload: "news.coalesced", scenario: "standard", kind: .metric, name: MetricName.cpuWakeups))
        // Sorted 9 10 11 11 12 13: median 11, deviations 0 0 1 1 2 2 → MAD 1, noise 1.4826.
        XCTAssertEqual(wakeups.median, 11)
        XCTAssertEqual(wakeups.mad, 1)
        XCTAssertEqual(wakeups.noise, 1.482_602_218_505_602, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(wakeups.cv), 1.482_602_218_505_602 / 11, accuracy: 1e-12)
    }
}
