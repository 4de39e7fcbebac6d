import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe
import FrugalReport

/// Hardware counters as metrics (issue 31, item 4): the real perf events where the machine has a
/// PMU, "unavailable" with the kernel's reason where it has none (this VM), and the whole path
/// — run, record, metrics, report.json, comparison, HTML — driven end to end by a test double of
/// the counter source, since no machine here can count instructions.
final class HardwareCounterTests: XCTestCase {
    /// Counts a fixed number of instructions per process it is attached to.
    final class FixedCounters: HardwareCounterSource, @unchecked Sendable {
        let instructions: UInt64
        let ratio: Double
        private let lock = NSLock()
        private var attached: [Int32] = []
        init(instructions: UInt64, ratio: Double = 1) {
            self.instructions = instructions
            self.ratio = ratio
        }
        var pids: [Int32] { lock.withLock { attached } }

        struct Session: HardwareCounterSession {
            let reading: HardwareCounterReading
            func read() -> HardwareCounterReading { reading }
            func close() {}
        }

        func attach(pid: Int32) -> Result<any HardwareCounterSession, HardwareCountersUnavailable> {
            lock.withLock { attached.append(pid) }
            let enabled: UInt64 = 1_000_000_000
            return .success(Session(reading: HardwareCounterReading(instructions: instructions, cycles: instructions / 2, cacheMisses: 1_000,
                                                                    branchMisses: 500, timeEnabledNanoseconds: enabled,
                                                                    timeRunningNanoseconds: UInt64(Double(enabled) * ratio))))
        }
    }

    static let scenario = Scenario(name: "command", summary: "to its end", steps: [.launch])

    func report(instructions: UInt64, ratio: Double = 1) throws -> (RunReport, [Int32]) {
        let counters = FixedCounters(instructions: instructions, ratio: ratio)
        // Light: `true` does nothing, and what is read is the double's fixed counts.
        let record = try ScenarioRunnerTests.runner { $0.hardwareCounters = counters }
            .run(RunPlan(target: .command(["true"]), scenario: Self.scenario, repetition: 1).demanding(.light))
        return (ReportBuilder.runReport(record), counters.pids)
    }

    func testCountsReachTheReportTheComparisonAndTheHTML() throws {
        let (run, pids) = try report(instructions: 2_000_000)
        XCTAssertEqual(pids.count, 1, "one process, one attachment")
        XCTAssertEqual(run.metrics[MetricName.cpuInstructions]?.value, 2_000_000)
        XCTAssertEqual(run.metrics[MetricName.cpuCycles]?.value, 1_000_000)
        XCTAssertEqual(run.metrics[MetricName.cpuInstructionsPerCycle]?.value, 2)
        XCTAssertEqual(run.metrics[MetricName.cpuCounterMultiplexing]?.value, 1)
        XCTAssertEqual(run.metrics[MetricName.cpuInstructions]?.source, MetricExtraction.Source.perfHardware)

        // Five runs against five with 10 % more instructions: a regression the comparison gates on.
        func suite(_ instructions: UInt64) throws -> Report {
            var runs: [RunReport] = []
            for repetition in 1...5 {
                var run = try report(instructions: instructions + UInt64(repetition)).0
                run.repetition = repetition
                runs.append(run)
            }
            let environment = EnvironmentInfo(hostname: "h", kernel: "k", cores: 2, memoryBytes: 1, virtualMachine: true, papiVersion: nil,
                                              counters: [], notes: [])
            return Report(tool: ToolInfo(version: "t"), generatedAt: "g", environment: environment, runs: runs,
                          results: ReportBuilder.aggregate(runs))
        }
        let base = try suite(2_000_000), head = try suite(2_200_000)
        let decodedHead = try ReportJSON.decode(try ReportJSON.encode(head))
        XCTAssertEqual(decodedHead.runs.first?.metrics[MetricName.cpuInstructions]?.value, 2_200_001, "through report.json")
        let comparison = ReportComparator.compare(base: base, head: decodedHead, baseline: "base.json")
        XCTAssertTrue(comparison.regressions.contains { $0.name == MetricName.cpuInstructions }, "\(comparison.regressions.map(\.name))")
        XCTAssertTrue(HTMLReportRenderer.render(decodedHead).contains(MetricName.cpuInstructions))
    }

    func testAMultiplexedCountSaysItWasScaled() throws {
        let (run, _) = try report(instructions: 1_000, ratio: 0.5)
        XCTAssertEqual(run.metrics[MetricName.cpuCounterMultiplexing]?.value, 0.5)
        XCTAssertTrue(run.metrics[MetricName.cpuInstructions]?.source.contains("multiplexed") ?? false)
    }

    /// The real source: counts where the machine has a PMU, the kernel's reason where it has none.
    /// Never 0 for "not counted".
    func testTheRealCountersCountOrSayWhyNot() throws {
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"]),
                                                                  scenario: Self.scenario, repetition: 1))
        let metrics = ReportBuilder.runReport(record).metrics
        let instructions = try XCTUnwrap(metrics[MetricName.cpuInstructions])
        if let value = instructions.value {
            XCTAssertGreaterThan(value, 1_000_000, "a loop of 20,000 shell steps is millions of instructions")
        } else {
            let reason = try XCTUnwrap(instructions.unavailable)
            XCTAssertTrue(reason.contains("perf_event_open"), reason)
            print("note: no hardware counters on this machine: \(reason)")
        }
    }
}
