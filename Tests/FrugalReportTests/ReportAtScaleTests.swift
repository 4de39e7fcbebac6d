import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore
import FrugalTestSupport

/// report.json written as it is encoded, the compact baseline, and the bounded summary.
final class ReportAtScaleTests: XCTestCase {
    /// A run with `handlers` handlers (several chunks of the writer), activity, disk and radio
    /// lanes, and text that needs escaping.
    static func largeRun(handlers: Int, repetition: Int = 1, workload: String = "large \"<w>\"") -> RunReport {
        var run = SyntheticReports.run(workload, repetition: repetition, metrics: [MetricName.cpuWakeups: Double(handlers)],
                                       audits: ["power.avoid-polling": 0.5])
        run.timeline.handlers = (0..<handlers).map { HandlerSpan(name: "timer:<\($0 % 7)>/é", start: Double($0) * 0.01, durationMs: 1.5, cpuMs: nil, contextSwitches: $0 % 3, waitingMs: nil) }
        run.timeline.activity = (0..<(handlers / 10)).map { ActivitySample(time: Double($0), interval: 0.2, wakeups: $0, cpuSeconds: 0.001, residentBytes: nil) }
        run.timeline.states = [StateInterval(state: .active, start: 0, end: 1)]
        run.timeline.hangs = []
        run.timeline.radio = RadioLane(profile: "LTE", model: "model:lte", intervals: [],
                                       transfers: [TransferMark(start: 0, end: 1, label: "GET /a\nb", outcome: .completed, bytesSent: 1, bytesReceived: 2, error: nil)])
        run.audits["power.avoid-polling"]?.evidence = [Evidence(time: 1, description: "tab\there")]
        return run
    }

    static func report(_ runs: [RunReport]) -> Report {
        Report(tool: ToolInfo(version: "test"), generatedAt: "2026-11-23T00:00:00Z", environment: ReportTests.environment,
               runs: runs, results: ReportBuilder.aggregate(runs))
    }

    func testTheStreamingWriterWritesExactlyWhatJSONEncoderWrites() throws {
        let cases = [
            Self.report([]),
            Self.report([Self.largeRun(handlers: 3)]),
            Self.report([Self.largeRun(handlers: ReportJSONWriter.chunkSize * 2 + 17), Self.largeRun(handlers: 0, repetition: 2)]),
            ReportTests.hostileReport(),
            CIOutputTests.reportWithEverything(),
            // Workload results written a few at a time (ReportJSONWriter.resultChunkSize).
            Self.suite(workloads: ReportJSONWriter.resultChunkSize * 2 + 3),
        ]
        for (index, report) in cases.enumerated() {
            let expected = try ReportJSON.encode(report)
            let streamed = try ReportJSONWriter.encode(report)
            XCTAssertEqual(streamed.count, expected.count, "case \(index)")
            XCTAssertTrue(streamed == expected, "case \(index): the streamed bytes differ from JSONEncoder's")
        }
        // And through a file, as frugal writes it.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-stream-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let report = cases[2]
        try ReportJSONWriter.write(report, to: url)
        XCTAssertTrue(try Data(contentsOf: url) == ReportJSON.encode(report))
        XCTAssertEqual(try ReportJSON.read(contentsOf: url).runs[0].timeline.handlers.count, ReportJSONWriter.chunkSize * 2 + 17)
    }

    /// The handler and activity lanes are written by hand (ReportJSONWriter+Lanes): numbers of
    /// every shape, absent members, and the chunks that go back to JSONEncoder (a NaN, a name to
    /// escape) all give JSONEncoder's bytes.
    func testHandWrittenLanesWriteExactlyWhatJSONEncoderWrites() throws {
        var random = SplitMix64(seed: 14)
        let shapes: [Double] = [0, -0.0, 1, 2.5, 1e-7, 123456789.125, 1e16, 1e17, 1.7976931348623157e308, Double.leastNonzeroMagnitude, 0.1 + 0.2, -3, 1e21, 4.35]
        func number() -> Double {
            switch random.next() % 3 {
            case 0: return shapes[Int(random.next() % UInt64(shapes.count))]
            case 1: return Double(Int64(bitPattern: random.next()) % 100_000) / 1000
            default: return Double(bitPattern: random.next() & 0x7fef_ffff_ffff_ffff) // any finite positive
            }
        }
        var run = Self.largeRun(handlers: 0)
        let count = ReportJSONWriter.chunkSize * 2 + 5
        run.timeline.handlers = (0..<count).map { index in
            HandlerSpan(name: index % 3 == 0 ? "didBecomeActive" : "timer:<\(index % 7)> a/b", start: number(), durationMs: number(),
                        cpuMs: index % 4 == 0 ? nil : number(), contextSwitches: index % 5 == 0 ? nil : Int(Int32(truncatingIfNeeded: random.next())),
                        waitingMs: index % 2 == 0 ? nil : number())
        }
        run.timeline.activity = (0..<count).map { index in
            ActivitySample(time: number(), interval: number(), wakeups: Int(truncatingIfNeeded: random.next()), cpuSeconds: number(),
                           residentBytes: index % 3 == 0 ? nil : Int(truncatingIfNeeded: random.next() >> 1))
        }
        var odd = run
        // The second chunk of each lane goes back to JSONEncoder: a name JSON escapes, a NaN.
        odd.timeline.handlers[ReportJSONWriter.chunkSize + 3].name = "quote \" back\\ tab\t é"
        odd.timeline.activity[ReportJSONWriter.chunkSize + 1].cpuSeconds = .nan
        for report in [Self.report([run]), Self.report([odd])] {
            let expected = try ReportJSON.encode(report)
            let streamed = try ReportJSONWriter.encode(report)
            XCTAssertEqual(streamed.count, expected.count)
            if streamed != expected {
                let at = zip(streamed, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
                XCTFail("differs at byte \(at): \(String(decoding: streamed[max(0, at - 80)..<min(streamed.count, at + 80)], as: UTF8.self))")
            }
        }
    }

    func testTheCompactBaselineComparesAsTheFullReportDoesAndIsSmall() throws {
        var runs: [RunReport] = []
        for repetition in 1...5 {
            var run = Self.largeRun(handlers: 2_000, repetition: repetition, workload: "w")
            run.metrics["other"] = .unavailable(unit: "ms", source: "test", reason: "not here")
            runs.append(run)
        }
        let full = Self.report(runs)
        let compactData = try ReportJSON.encodeBaseline(full)
        let fullData = try ReportJSON.encode(full)
        XCTAssertLessThan(compactData.count * 20, fullData.count, "compact \(compactData.count) B, full \(fullData.count) B")
        let compact = try ReportJSON.decode(compactData)
        XCTAssertEqual(compact.runs.count, 5)
        XCTAssertTrue(compact.runs.allSatisfy { $0.timeline.handlers.isEmpty })
        // A regressed head: more wakeups and a worse audit value in every repetition.
        var worse = runs
        for index in worse.indices {
            worse[index].metrics[MetricName.cpuWakeups] = MetricValue(9_000 + Double(index), unit: "count", source: "test")
            worse[index].audits["power.avoid-polling"]?.numericValue = 5 + Double(index)
        }
        for head in [full, Self.report(worse)] {
            let againstFull = ReportComparator.compare(base: full, head: head, baseline: "b")
            let againstCompact = ReportComparator.compare(base: compact, head: head, baseline: "b")
            XCTAssertEqual(againstCompact.regressions.map(\.name), againstFull.regressions.map(\.name))
            XCTAssertEqual(againstCompact.results, againstFull.results)
            XCTAssertNil(againstCompact.machineWarning)
        }
        XCTAssertFalse(ReportComparator.compare(base: compact, head: Self.report(worse), baseline: "b").regressions.isEmpty)
        // One line per workload, so an update diffs by workload.
        XCTAssertEqual(String(decoding: compactData, as: UTF8.self).split(separator: "\n").count, 3)
    }

    func testAnotherFormatIsRefusedByName() {
        XCTAssertThrowsError(try ReportJSON.decode(Data(#"{"schemaVersion": 1, "format": "mystery"}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("mystery"), "\(error)")
        }
    }

    /// `count` workloads, each failing two audits and passing the rest.
    static func suite(workloads count: Int, failing: Int = 2) -> Report {
        let ids = RuleCatalogue.all.map(\.id)
        var runs: [RunReport] = []
        for index in 0..<count {
            var run = SyntheticReports.run("workload-\(index)", repetition: 1, metrics: [:], audits: [:])
            for (position, id) in ids.enumerated() {
                let score = position < failing ? 0.1 : 0.95
                run.audits[id] = AuditResult(id: id, title: id, score: score, scoreDisplayMode: .numeric, numericValue: Double(position),
                                             numericUnit: "ms", displayValue: "\(position) ms: " + String(repeating: "x", count: 40))
            }
            runs.append(run)
        }
        return report(runs)
    }

    func testTheSummaryFitsAPullRequestCommentAndKeepsEveryFailingAudit() {
        // 82 workload·scenario pairs (the default suite twice over): every failing audit listed.
        let report = Self.suite(workloads: 82)
        let summary = MarkdownSummaryRenderer.render(report)
        XCTAssertLessThanOrEqual(summary.utf16.count, MarkdownSummaryRenderer.characterLimit)
        let failing = RuleCatalogue.all.prefix(2).map(\.id)
        for index in 0..<82 {
            let section = summary.components(separatedBy: "### workload-\(index) · standard")
            XCTAssertEqual(section.count, 2, "workload-\(index) has no section")
            let body = section[1].components(separatedBy: "### ")[0]
            for id in failing { XCTAssertTrue(body.contains("`\(id)` | failing | 🔴"), "workload-\(index) lacks \(id)") }
            XCTAssertTrue(body.contains("Passing:"), "workload-\(index) lacks its category counts")
        }
        XCTAssertTrue(summary.contains("report.html"))
    }

    func testAnyReportStaysUnderTheBoundAndSaysWhatWasLeftOut() {
        let summary = MarkdownSummaryRenderer.render(Self.suite(workloads: 2_000, failing: 20))
        XCTAssertLessThanOrEqual(summary.utf16.count, MarkdownSummaryRenderer.characterLimit)
        XCTAssertTrue(summary.contains("did not fit"), String(summary.suffix(300)))
        // What comes first is kept: the first workload's failing audits.
        XCTAssertTrue(summary.contains("### workload-0 · standard"))
    }

    func testJUnitSystemOutIsBounded() {
        let long = String(repeating: "é", count: 100_000)
        let bounded = JUnitRenderer.bounded(long)
        XCTAssertLessThanOrEqual(bounded.utf16.count, JUnitRenderer.systemOutLimit)
        XCTAssertTrue(bounded.hasSuffix("see report.html"))
        XCTAssertEqual(JUnitRenderer.bounded("short"), "short")
    }
}
