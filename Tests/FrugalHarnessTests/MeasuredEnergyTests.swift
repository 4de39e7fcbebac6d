import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe
import FrugalReport

/// Measured energy (issue 31, item 4): RAPL's package energy through powercap, labelled measured
/// beside the modelled energy; unavailable with the reason on a machine without RAPL (this VM);
/// the path — run, record, metric, energy section, report.json, comparison, HTML — driven end
/// to end by a test double of the energy meter.
/// The one real run (`true`) is light: it reads whether energy was measured, not how much.
final class MeasuredEnergyTests: XCTestCase {
    /// Measures `joules` over any run.
    struct FixedEnergy: EnergyMeterSource {
        let joules: Double
        struct Session: EnergyMeterSession {
            let joules: Double
            func end() -> MeasuredEnergy { MeasuredEnergy(joules: joules, seconds: 1, zones: ["intel-rapl:0 package-0"], source: "double:fixed-energy") }
        }
        func begin() -> Result<any EnergyMeterSession, HardwareCountersUnavailable> { .success(Session(joules: joules)) }
    }

    static let scenario = Scenario(name: "command", summary: "to its end", steps: [.launch])

    func run(_ meter: any EnergyMeterSource) throws -> RunReport {
        let record = try ScenarioRunnerTests.runner { $0.energyMeter = meter }
            .run(RunPlan(target: .command(["true"]), scenario: Self.scenario, repetition: 1).demanding(.light))
        return ReportBuilder.runReport(record)
    }

    func testMeasuredEnergyReachesTheReportBesideTheModelledOne() throws {
        let run = try run(FixedEnergy(joules: 12.5))
        let metric = try XCTUnwrap(run.metrics[MetricName.energyMeasuredJoules])
        XCTAssertEqual(metric.value, 12.5)
        XCTAssertTrue(metric.source.contains("double:fixed-energy") && metric.source.contains("whole package"), metric.source)
        let energy = try XCTUnwrap(run.energy)
        XCTAssertEqual(energy.measuredJoules, 12.5)
        XCTAssertNil(energy.unavailable["measured"])
        XCTAssertNotEqual(energy.totalJoules, 12.5, "the modelled total never includes the measurement")

        var runs: [RunReport] = []
        for (repetition, joules) in [10.0, 12.0, 14.0].enumerated() {
            var run = try self.run(FixedEnergy(joules: joules))
            run.repetition = repetition + 1
            runs.append(run)
        }
        let environment = EnvironmentInfo(hostname: "h", kernel: "k", cores: 2, memoryBytes: 1, virtualMachine: false, papiVersion: nil,
                                          counters: [], notes: [])
        let report = Report(tool: ToolInfo(version: "t"), generatedAt: "g", environment: environment, runs: runs,
                            results: ReportBuilder.aggregate(runs))
        let decoded = try ReportJSON.decode(try ReportJSON.encode(report))
        XCTAssertEqual(decoded.results.first?.energy?.measuredJoules, 12, "the median, through report.json")
        let comparison = ReportComparator.compare(base: decoded, head: decoded, baseline: "base.json")
        XCTAssertTrue(comparison.results.contains { $0.metrics.contains { $0.name == MetricName.energyMeasuredJoules } },
                      "compared like every metric")
        let html = HTMLReportRenderer.render(decoded)
        XCTAssertTrue(html.contains("Measured energy") && html.contains("measured by RAPL"), "labelled measured in the HTML")
    }

    /// The real meter here: RAPL's reading where the machine has it, the reason where it has none.
    func testTheRealMeterMeasuresOrSaysWhyNot() throws {
        let run = try run(PowercapEnergyMeter())
        let metric = try XCTUnwrap(run.metrics[MetricName.energyMeasuredJoules])
        if let joules = metric.value {
            XCTAssertGreaterThan(joules, 0, "a run costs the package some energy")
        } else {
            let reason = try XCTUnwrap(metric.unavailable)
            XCTAssertEqual(run.energy?.unavailable["measured"], reason)
            XCTAssertTrue(HTMLReportRenderer.render(Report(tool: ToolInfo(version: "t"), generatedAt: "g",
                                                           environment: EnvironmentInfo(hostname: "h", kernel: "k", cores: 2, memoryBytes: 1,
                                                                                        virtualMachine: true, papiVersion: nil, counters: [], notes: []),
                                                           runs: [run], results: ReportBuilder.aggregate([run]))).contains("Measured energy"))
            print("note: no measured energy here: \(reason)")
        }
    }
}
