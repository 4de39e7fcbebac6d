import FrugalTestSupport
import XCTest
@testable import FrugalCore

/// Each metric is declared once (``MetricCatalogue``): its unit, its direction and its minimum
/// effect; extraction and comparison are held to the declaration.
final class MetricCatalogueTests: XCTestCase {
    func testNamesAreUniqueAndNamedAsTheContractSays() {
        let names = MetricCatalogue.all.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "a metric declared twice")
        for name in names {
            XCTAssertNotNil(name.range(of: #"^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$"#, options: .regularExpression), "\(name) is not area.camelCase")
        }
        XCTAssertFalse(MetricCatalogue.named(MetricName.cpuWakeups)?.unit.isEmpty ?? true)
    }

    /// Every metric the extraction gives for a run is declared, in the declared unit.
    func testExtractedMetricsAreDeclaredWithTheirUnits() {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(RunAnalysisTests.record()))
        XCTAssertGreaterThan(metrics.count, 10)
        for (name, value) in metrics {
            guard let definition = MetricCatalogue.named(name) else {
                XCTFail("\(name) is extracted but not declared in MetricCatalogue")
                continue
            }
            XCTAssertEqual(value.unit, definition.unit, "\(name)'s unit")
            if let source = definition.source { XCTAssertEqual(value.source, source, "\(name)'s source") }
        }
    }

    /// A metric declared as a ``MetricFamily`` is declared whole: its source and when it is
    /// available are part of the declaration, and the family's extractor gives each of its
    /// metrics (a value or unavailable with a reason, never missing), with and without samples.
    func testEachFamilyDeclaresItsSourceAndAvailabilityAndGivesEveryMetric() {
        XCTAssertFalse(MetricFamily.all.isEmpty)
        var empty = RunAnalysisTests.record()
        empty.samples = []
        for family in MetricFamily.all {
            for definition in family.definitions {
                XCTAssertFalse(definition.source?.isEmpty ?? true, "\(definition.name) declares no source")
                XCTAssertFalse(definition.availability?.isEmpty ?? true, "\(definition.name) declares no availability")
                XCTAssertEqual(MetricCatalogue.named(definition.name), definition, "\(definition.name) is in the catalogue as declared")
                for record in [RunAnalysisTests.record(), empty] {
                    var metrics: [String: MetricValue] = [:]
                    family.extract(RunAnalysis(record), &metrics)
                    let value = metrics[definition.name]
                    XCTAssertNotNil(value, "\(definition.name) not given by its family's extractor")
                    if let value, value.value == nil { XCTAssertFalse(value.unavailable?.isEmpty ?? true, "\(definition.name): no value and no reason") }
                }
            }
        }
    }

    /// The minimum effects the comparisons use are the declarations'.
    func testTheMinimumEffectTableIsTheDeclarations() {
        XCTAssertEqual(MinimumEffectTable.metric(MetricName.cpuWakeups), MetricCatalogue.named(MetricName.cpuWakeups)?.minimumEffect)
        XCTAssertEqual(MinimumEffectTable.metric(MetricName.cpuWakeups).absolute, 15)
        XCTAssertEqual(MinimumEffectTable.metrics.count, MetricCatalogue.all.filter { $0.minimumEffect != nil }.count)
    }

    /// Instructions per cycle falling by half is a regression, not an improvement: a metric's
    /// direction comes from its declaration (every metric was once compared as lower-is-better).
    func testAHigherIsBetterMetricThatFallsRegresses() throws {
        XCTAssertEqual(MetricCatalogue.direction(of: MetricName.cpuInstructionsPerCycle), .higherIsBetter)
        XCTAssertEqual(MetricCatalogue.direction(of: MetricName.memoryFreedOnWarningBytes), .higherIsBetter)
        XCTAssertEqual(MetricCatalogue.direction(of: MetricName.cpuWakeups), .lowerIsBetter)
        func report(_ ipc: [Double]) -> Report {
            let runs = ipc.enumerated().map { index, value in
                SyntheticReports.run("w", repetition: index + 1, metrics: [MetricName.memoryFreedOnWarningBytes: value], audits: [:])
            }
            return Report(tool: ToolInfo(version: "test"), generatedAt: "2026-11-26T00:00:00Z", environment: SyntheticReports.environment,
                          runs: runs, results: ReportBuilder.aggregate(runs))
        }
        let base = report([80_000_000, 81_000_000, 79_000_000, 80_500_000, 79_500_000])
        let head = report([10_000_000, 11_000_000, 9_000_000, 10_500_000, 9_500_000])
        let comparison = ReportComparator.compare(base: base, head: head, baseline: "base.json")
        let entry = try XCTUnwrap(comparison.results.first?.metrics.first { $0.name == MetricName.memoryFreedOnWarningBytes })
        XCTAssertEqual(entry.verdict, .regressed, entry.reason)
        let improved = ReportComparator.compare(base: head, head: base, baseline: "head.json")
        XCTAssertNotEqual(improved.results.first?.metrics.first { $0.name == MetricName.memoryFreedOnWarningBytes }?.verdict, .regressed)
    }

    /// The thread count: the most threads one sample listed, or unavailable without samples.
    func testThePeakThreadCountIsTheMostInOneSample() throws {
        var record = RunAnalysisTests.record()
        let start = record.startTime
        record.samples = [RunAnalysisTests.sample(start + 1_000_000_000, [(100, 1), (101, 0)]),
                          RunAnalysisTests.sample(start + 2_000_000_000, [(100, 2), (101, 0), (102, 0), (103, 0)]),
                          RunAnalysisTests.sample(start + 3_000_000_000, [(100, 3)])]
        let value = try XCTUnwrap(MetricExtraction.metrics(of: RunAnalysis(record))[MetricName.threadsPeak])
        XCTAssertEqual(value.value, 4)
        XCTAssertEqual(value.unit, MetricCatalogue.named(MetricName.threadsPeak)?.unit)
        record.samples = []
        let none = try XCTUnwrap(MetricExtraction.metrics(of: RunAnalysis(record))[MetricName.threadsPeak])
        XCTAssertNil(none.value)
        XCTAssertNotNil(none.unavailable)
    }
}
