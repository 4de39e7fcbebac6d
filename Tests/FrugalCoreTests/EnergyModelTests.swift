import XCTest
@testable import FrugalCore

final class EnergyModelTests: XCTestCase {
    func testCPUEnergyIsRunningPowerPlusWakeups() {
        // 2 CPU-s × 0.55546 W = 1.11092 J; 100 wakeups × 0.00024292 J = 0.024292 J.
        XCTAssertEqual(CPUEnergyModel.htcDreamPowerTutor.joules(cpuSeconds: 2, wakeups: 100), 1.135212, accuracy: 1e-12)
    }

    func testDiskEnergyIsPerOperationPlusPerByte() {
        // 10 ops × 0.2 mJ = 2 mJ; 1,000,000 bytes × 7.5 nJ = 7.5 mJ.
        XCTAssertEqual(DiskEnergyModel.emmcAssumed.joules(operations: 10, bytes: 1_000_000), 0.0095, accuracy: 1e-15)
    }

    func testEveryConstantHasASourceOrSaysItIsAnAssumption() {
        let profile = DeviceProfile.reference
        for constant in [profile.cpu.runningWatts, profile.cpu.wakeupJoules, profile.disk.operationJoules, profile.disk.byteJoules] {
            XCTAssertFalse(constant.source.isEmpty)
            XCTAssertEqual(constant.assumption, constant.source.hasPrefix("assumption: "))
        }
        XCTAssertFalse(profile.cpu.runningWatts.assumption)
    }

    func testARunWithoutANetworkTraceHasRadioUnavailableAndATotalOfTheRest() throws {
        let metrics = [MetricName.cpuTimeSeconds: MetricValue(1, unit: "s", source: "t"),
                       MetricName.cpuWakeups: MetricValue(0, unit: "count", source: "t"),
                       MetricName.diskPhysicalBytesWritten: MetricValue(4_000_000, unit: "bytes", source: "t")]
        let energy = EnergyEstimator.estimate(metrics: metrics, seconds: 10)
        XCTAssertEqual(try XCTUnwrap(energy.cpuJoules), 0.55546, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(energy.diskJoules), 0.03, accuracy: 1e-12)  // 4e6 × 7.5e-9
        XCTAssertNil(energy.radioJoules)
        XCTAssertEqual(energy.unavailable["radio"], "the run has no network trace")
        XCTAssertEqual(try XCTUnwrap(energy.totalJoules), 0.58546, accuracy: 1e-12)
        XCTAssertTrue(energy.notes.contains("totalJoules leaves out radio: unavailable"))
        XCTAssertTrue(energy.notes.contains { $0.contains("disk.writeOps was not measured") })
        // 0.58546 J over 10 s = 58.546 mW: "high" (0.05 W ≤ p < 0.25 W).
        let impact = try XCTUnwrap(energy.impact)
        XCTAssertEqual(impact.averageWatts, 0.058546, accuracy: 1e-12)
        XCTAssertEqual(impact.level, .high)
        XCTAssertEqual(try XCTUnwrap(impact.shares["cpu"]), 0.55546 / 0.58546, accuracy: 1e-12)
    }

    func testUnmeasuredCPUIsUnavailableNotZero() {
        let metrics = [MetricName.cpuTimeSeconds: MetricValue.unavailable(unit: "s", source: "t", reason: "not reaped")]
        let energy = EnergyEstimator.estimate(metrics: metrics, seconds: 1)
        XCTAssertNil(energy.cpuJoules)
        XCTAssertNil(energy.totalJoules)
        XCTAssertNil(energy.impact)
        XCTAssertEqual(energy.unavailable["cpu"], "needs cpu.timeSeconds (not reaped) and cpu.wakeups (not measured)")
    }

    func testImpactThresholds() {
        XCTAssertEqual(EnergyImpactLevel(averageWatts: 0.0499), .low)
        XCTAssertEqual(EnergyImpactLevel(averageWatts: 0.05), .high)
        XCTAssertEqual(EnergyImpactLevel(averageWatts: 0.2499), .high)
        XCTAssertEqual(EnergyImpactLevel(averageWatts: 0.25), .veryHigh)
    }

    func testAggregationTakesMediansAndKeepsSpread() throws {
        let metric = AggregatedMetric(runs: [MetricValue(3, unit: "count", source: "s"), nil, MetricValue(1, unit: "count", source: "s"), MetricValue(10, unit: "count", source: "s")])
        // Values 1, 3, 10: median 3; deviations 2, 0, 7 → MAD 2.
        XCTAssertEqual(metric.median, 3)
        XCTAssertEqual(metric.mad, 2)
        XCTAssertEqual(metric.min, 1)
        XCTAssertEqual(metric.max, 10)
        XCTAssertEqual(metric.values, [3, nil, 1, 10])
        XCTAssertNil(metric.unavailable)
        let missing = AggregatedMetric(runs: [MetricValue.unavailable(unit: "s", source: "s", reason: "why")])
        XCTAssertNil(missing.median)
        XCTAssertEqual(missing.unavailable, "why")
    }
}
