import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import FrugalReport
@testable import FrugalCore

/// JUnit, Markdown and annotations, from a report with a comparison and assertions.
final class CIOutputTests: XCTestCase {
    /// The hostile report (markup in names) against itself, with strict assertions.
    static func reportWithEverything() -> Report {
        var report = ReportTests.hostileReport()
        report.comparison = ReportComparator.compare(base: report, head: report, baseline: "base <1>.json")
        report.assertions = AssertionEvaluator.evaluate(AssertionSet.merging(preset: .strict, overrides: []), results: report.results)
        return report
    }

    /// Collects `<testcase>`s and their `<failure>`s.
    final class JUnitCollector: NSObject, XMLParserDelegate {
        var testCases: [String] = []
        var failures: [String] = []
        var current = ""
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if name == "testcase" { current = attributes["name"] ?? ""; testCases.append(current) }
            if name == "failure" { failures.append(current) }
        }
    }

    func parse(_ xml: String) throws -> JUnitCollector {
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = JUnitCollector()
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "JUnit must be well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        return collector
    }

    func testJUnitHasATestCasePerAuditAndParses() throws {
        let report = try ReportTests.realReport()
        let junit = try parse(JUnitRenderer.render(report))
        let audits = report.results.flatMap { $0.audits.keys }.sorted()
        XCTAssertEqual(junit.testCases.sorted(), audits)
        XCTAssertGreaterThan(audits.count, 2)
    }

    func testJUnitFailsErrorAssertionsAndEscapesNames() throws {
        let report = Self.reportWithEverything()
        let xml = JUnitRenderer.render(report)
        XCTAssertFalse(xml.contains("<script"))
        let junit = try parse(xml)
        // The 300 ms hang scores below 0.9 in main.no-long-blocks: strict's error fails it.
        let failing = report.assertions!.results.filter { !$0.passed && $0.level == .error && !$0.target.hasPrefix("categories:") }.map(\.target)
        XCTAssertFalse(failing.isEmpty)
        XCTAssertEqual(Set(junit.failures.filter { !$0.hasPrefix("categories:") }), Set(failing))
    }

    func testJUnitWithoutAssertionsFailsTheFailBand() throws {
        let report = ReportTests.hostileReport()
        let junit = try parse(JUnitRenderer.render(report))
        let failBand = report.results[0].audits.values.filter { ($0.score ?? 1) < 0.5 }.map(\.id)
        XCTAssertEqual(Set(junit.failures), Set(failBand))
    }

    func testMarkdownListsRegressionsWorstFirstBeforeScores() throws {
        let base = ReportTests.hostileReport()
        var head = base
        // Two regressions of different size, by hand: the larger first.
        func entry(_ name: String, _ relative: Double) throws -> ComparisonEntry {
            let comparison = try MetricComparison(base: [1, 1.1, 0.9, 1, 1.05], head: [1 + relative, 1.1 + relative, 0.9 + relative, 1 + relative, 1.05 + relative], direction: .lowerIsBetter)
            return ComparisonEntry(kind: .metric, workload: "w|x", scenario: "s", name: name, unit: "count", comparison: comparison,
                                   minimumEffect: MinimumEffectTable.defaultMetric)
        }
        let small = try entry("cpu.small", 0.5), large = try entry("cpu.large", 5)
        head.comparison = ReportComparison(baseline: "b.json", baselineGeneratedAt: "then", alpha: 0.05, minimumRepetitions: 5, results: [],
                                           regressions: [small, large].sorted { $0.severity > $1.severity }, unmatched: [], insufficientRepetitions: nil)
        let markdown = MarkdownSummaryRenderer.render(head)
        let largeAt = try XCTUnwrap(markdown.range(of: "cpu.large")).lowerBound
        let smallAt = try XCTUnwrap(markdown.range(of: "cpu.small")).lowerBound
        let scoresAt = try XCTUnwrap(markdown.range(of: "## Scores")).lowerBound
        XCTAssertLessThan(largeAt, smallAt)
        XCTAssertLessThan(smallAt, scoresAt)
        XCTAssertTrue(markdown.contains("2 regressions"))
        XCTAssertTrue(markdown.contains("w\\|x"))
    }

    func testAnnotationsAreWorkflowCommandsWithEscapedData() {
        let lines = GitHubAnnotations.render(Self.reportWithEverything())
        XCTAssertFalse(lines.isEmpty)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("::error title=") || $0.hasPrefix("::warning title=") }, "\(lines)")
        XCTAssertTrue(lines.allSatisfy { !$0.dropFirst(2).contains("\n") })
        XCTAssertEqual(GitHubAnnotations.property("a:b,c%"), "a%3Ab%2Cc%25")
    }

    func testAReportWithComparisonAndAssertionsValidates() throws {
        var report = try ReportTests.realReport()
        report.comparison = ReportComparator.compare(base: report, head: report, baseline: "self")
        report.assertions = AssertionEvaluator.evaluate(AssertionSet.merging(preset: .recommended, overrides: []), results: report.results)
        XCTAssertNotNil(report.comparison?.insufficientRepetitions, "one run per side is not enough, and says so")
        let data = try ReportJSON.encode(report)
        let errors = try ReportTests.validator().validate(data)
        XCTAssertEqual(errors, [], errors.joined(separator: "\n"))
        let decoded = try ReportJSON.decode(data)
        XCTAssertEqual(decoded.comparison, report.comparison)
        XCTAssertNotNil(decoded.runs[0].energy?.cpuJoules)
        // A run with no traffic has no radio energy, and says why with the network metric's own reason.
        XCTAssertNil(decoded.runs[0].energy?.radioJoules)
        XCTAssertEqual(decoded.runs[0].energy?.unavailable["radio"], decoded.runs[0].metrics[MetricName.networkRadioJoules]?.unavailable)
        XCTAssertNotNil(decoded.runs[0].energy?.unavailable["radio"])
        XCTAssertNotNil(decoded.results[0].metrics?[MetricName.cpuWakeups]?.median)

        // Five repetitions a side, so the tests run and their fields are written too.
        var five = report
        five.runs = report.runs.flatMap { run in (1...5).map { repetition -> RunReport in var copy = run; copy.repetition = repetition; return copy } }
        five.results = ReportBuilder.aggregate(five.runs)
        five.comparison = ReportComparator.compare(base: five, head: five, baseline: "self")
        XCTAssertNil(five.comparison?.insufficientRepetitions)
        XCTAssertTrue(five.comparison?.results.flatMap(\.metrics).contains { $0.pValue != nil } ?? false)
        let fiveErrors = try ReportTests.validator().validate(try ReportJSON.encode(five))
        XCTAssertEqual(fiveErrors, [], fiveErrors.joined(separator: "\n"))
    }

    func testHTMLShowsComparisonTrendsAndEnergyEscaped() {
        let report = Self.reportWithEverything()
        let result = report.results[0]
        let history = ReportHistory(series: [HistorySeries(workload: result.workload, scenario: result.scenario, audit: "main.no-long-blocks",
                                                           points: [HistoryPoint(recordedAt: "t1", commit: "abcdef0123", score: 1, value: 0),
                                                                    HistoryPoint(recordedAt: "t2", commit: "<b>", score: 0.2, value: 600)])])
        let html = HTMLReportRenderer.render(report, history: history)
        XCTAssertTrue(html.contains("class=\"trend\""), "a trend line for the audit with history")
        XCTAssertTrue(html.contains("Against the baseline"))
        XCTAssertTrue(html.contains("base &lt;1&gt;.json"))
        XCTAssertTrue(html.contains("Assertions"))
        XCTAssertFalse(html.contains("<script"))
        XCTAssertFalse(html.contains("@<b>"))
    }

    func testAMillionHandlerTimelineIsMergedPerPixel() {
        let handlers = (0..<100_000).map { HandlerSpan(name: "h", start: Double($0) / 10_000, durationMs: 0.05, cpuMs: nil, contextSwitches: nil) }
        let svg = TimelineSVG.render(Timeline(states: [], handlers: handlers, steps: [], activity: [], duration: 10))
        let bars = svg.components(separatedBy: "<rect").count - 1
        XCTAssertLessThanOrEqual(bars, 1000, "at most one bar per pixel column")
        XCTAssertTrue(svg.contains("handlers"), "merged bars say how many handlers they hold")
    }
}

final class ReportFilesTests: XCTestCase {
    func testASecondWriteReplacesTheFirst() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-rewrite-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("report.json")
        try ReportFiles.writeAtomically(Data("first".utf8), to: file)
        try ReportFiles.writeAtomically(Data("second".utf8), to: file)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "second")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["report.json"], "no temporary file left")
    }
}
