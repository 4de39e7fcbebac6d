import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore
import FrugalHarness
import FrugalTestSupport

final class ReportTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func validator() throws -> JSONSchemaValidator {
        try JSONSchemaValidator(schema: Data(contentsOf: repository.appendingPathComponent("schema/report.schema.json")))
    }

    static let environment = EnvironmentInfo(hostname: "h", kernel: "k", cores: 2, memoryBytes: 1, virtualMachine: true,
                                             papiVersion: "7.0.0", counters: [CounterAvailability(name: "PAPI_TOT_INS", source: "papi", available: false, reason: "Event does not exist (PAPI error -7)")],
                                             notes: ["n"])

    /// A report of a real run of the idle app and of a black-box command, made once per test
    /// process: four tests in two lanes read it (about 3 s of runs each time), and none changes
    /// it (`Report` is a value).
    static func realReport() throws -> Report { try madeReport.get() }

    private static let madeReport = Result { try makeRealReport() }

    private static func makeRealReport() throws -> Report {
        guard let host = WorkloadHostLocator.locate() else { throw XCTSkip("frugal-workload-host is not built") }
        let runner = ScenarioRunner(options: HarnessOptions(workloadHost: host))
        let scenario = Scenario(name: "short", summary: "", steps: [.launch, .input(kind: "tap"), .wait(seconds: 1), .terminate])
        // export.leaves-tmp writes through FrugalKit and leaves a file: the disk lane and file table.
        // Only the report's shape and contents are read, never a time: `idle` and `true` share the
        // machine (light); the export writes its 8 MiB in its input, which holds it (gated).
        var plans = [RunPlan(target: .builtIn(name: "idle"), scenario: scenario, repetition: 1),
                     RunPlan(target: .command(["true"]), scenario: scenario, repetition: 1),
                     RunPlan(target: .builtIn(name: "export.leaves-tmp"), scenario: scenario, repetition: 1)]
        plans[0].demand = .light
        plans[1].demand = .light
        plans[2].demand = .gated("writes its archive in its input")
        let records = try plans.map(runner.run)
        return ReportBuilder.build(records: records, tool: ToolInfo(version: "test"), generatedAt: "2026-11-21T00:00:00Z",
                                   environment: environment)
    }

    func testARealReportValidatesAgainstTheSchema() throws {
        let data = try ReportJSON.encode(try Self.realReport())
        let errors = try Self.validator().validate(data)
        XCTAssertEqual(errors, [], errors.joined(separator: "\n"))
        let decoded = try ReportJSON.decode(data)
        XCTAssertEqual(decoded.runs.count, 3)
        XCTAssertEqual(decoded.results.count, 3)
        XCTAssertEqual(decoded.runs[2].outcome, .completed, decoded.runs[2].outcomeDetail ?? "")
        XCTAssertNotNil(decoded.runs[2].timeline.disk, "the disk lane is in the validated report")
        XCTAssertNotNil(decoded.runs[2].files, "the file table is in the validated report")
        let html = HTMLReportRenderer.render(decoded)
        XCTAssertTrue(html.contains("tmp/export/archive.zip"), "the file table is rendered")
        XCTAssertTrue(html.contains("proc:io.wchar"), "bytes written are shown with their sources")
        XCTAssertTrue(html.contains(">disk</text>"), "the timeline has a disk lane")
    }

    func testTheValidatorCatchesBrokenReports() throws {
        let data = try ReportJSON.encode(try Self.realReport())
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var runs = try XCTUnwrap(object["runs"] as? [[String: Any]])
        runs[0]["outcome"] = "exploded"
        var metrics = try XCTUnwrap(runs[0]["metrics"] as? [String: Any])
        metrics["cpu.wakeups"] = ["value": "many", "unit": "count", "source": "x"]
        metrics["Bad Name"] = ["value": 1, "unit": "count", "source": "x"]
        runs[0]["metrics"] = metrics
        object["runs"] = runs
        object["tool"] = nil
        let errors = try Self.validator().validate(JSONSerialization.data(withJSONObject: object))
        XCTAssertTrue(errors.contains { $0.contains("missing tool") }, "\(errors)")
        XCTAssertTrue(errors.contains { $0.contains("exploded") }, "\(errors)")
        XCTAssertTrue(errors.contains { $0.contains("cpu.wakeups.value") }, "\(errors)")
        XCTAssertTrue(errors.contains { $0.contains("Bad Name") }, "\(errors)")
    }

    func testOtherSchemaVersionsAreRefused() {
        XCTAssertThrowsError(try ReportJSON.decode(Data(#"{"schemaVersion": 2}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("schemaVersion 2"))
        }
    }

    /// A report whose workload names and handlers carry markup.
    static func hostileReport() -> Report {
        var record = RunRecord(workload: "<script>alert(1)</script>", scenario: "s&s", repetition: 1, startTime: 0, endTime: 2_000_000_000,
                               pid: nil, steps: [], events: [], samples: [], outcome: .completed, outcomeDetail: "\"quoted\" <b>",
                               exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        record.events = [WorkloadEvent(time: 300_000_000, body: .handler(HandlerRecord(name: "timer:<img src=x onerror=alert(2)>", start: 0, end: 300_000_000)))]
        return ReportBuilder.build(records: [record], tool: ToolInfo(version: "t"), generatedAt: "now", environment: environment)
    }

    func testHTMLEscapesWorkloadStringsAndIsSelfContained() {
        let html = HTMLReportRenderer.render(Self.hostileReport())
        XCTAssertFalse(html.contains("<script"), "no script element, escaped or otherwise")
        XCTAssertFalse(html.contains("<img"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        XCTAssertTrue(html.contains("&lt;img src=x onerror=alert(2)&gt;"))
        XCTAssertFalse(html.contains("<link"), "no external stylesheet")
        XCTAssertFalse(html.contains("src=\""), "no external asset")
        XCTAssertTrue(html.contains("<svg"), "the timeline is inline SVG")
        XCTAssertTrue(html.contains("(hang)"), "a 300 ms handler is marked as a hang")
    }

    /// An audit in the middle band (0.5–0.9) is a warning the summary names, with its score: a
    /// poller scoring 0.51 once read "failing audits: none".
    func testSummaryListsMiddleBandAuditsAsWarnings() throws {
        let rule = try XCTUnwrap(RuleCatalogue.rule("power.avoid-polling"))
        let value = try XCTUnwrap(stride(from: 0.01, through: 10, by: 0.01).first { ScoreBand(score: rule.scoring.score($0)) == .average })
        let report = SyntheticReports.report("news.polling", wakeups: [1], idleRates: [value])
        let markdown = MarkdownSummaryRenderer.render(report)
        XCTAssertTrue(markdown.contains("| `power.avoid-polling` | warning |"), markdown)
        XCTAssertTrue(markdown.contains("1 warning (average, 50–89)"), markdown)
        XCTAssertFalse(markdown.contains("No failing audit and no warning."), markdown)
        let passing = MarkdownSummaryRenderer.render(SyntheticReports.report("news.coalesced", wakeups: [1], idleRates: [0]))
        XCTAssertTrue(passing.contains("No failing audit and no warning."), passing)
    }

    func testMarkdownKeepsTablesIntact() {
        var report = Self.hostileReport()
        report.results[0].workload = "a|b"
        let markdown = MarkdownSummaryRenderer.render(report)
        XCTAssertTrue(markdown.contains("a\\|b"))
        XCTAssertTrue(markdown.contains("| workload | scenario |"))
    }

    func testReportFilesAreWrittenTogether() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-report-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try ReportFiles.write(Self.hostileReport(), to: directory)
        XCTAssertEqual(files.map(\.lastPathComponent), ["report.json", "report.html", "summary.md"])
        for file in files { XCTAssertGreaterThan(try Data(contentsOf: file).count, 100) }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no temporary files left behind")
    }
}
