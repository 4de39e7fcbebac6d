import Foundation
import FrugalCore
import FrugalHarness
import FrugalPipeline
@testable import FrugalReport
import XCTest

/// evidence.json and report.json are written by ``SortedJSONEncoder``, not `JSONEncoder` (its
/// casts were most of the Swift runtime's share of a short run, issue 31): on the evidence and
/// report of a real run, the files hold exactly `JSONEncoder`'s bytes, and `frugal reaudit`'s
/// path reads the evidence back into the same report.
final class EvidenceEncodingTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-evidence-encoding-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    func testARealRunsFilesAreJSONEncodersBytes() throws {
        var selection = SuiteSelection()
        // Some of everything a black box leaves: files written in its sandbox, a child process,
        // wakeups, a sleep.
        selection.command = ["/bin/sh", "-c", "echo \"a/b \\\"q\\\"\" > \"$HOME/notes.txt\"; mkdir -p \"$HOME/d\"; sh -c 'sleep 0.1'; sleep 0.2"]
        let plans = try SuitePlanner.plans(selection, project: nil)
        let out = scratch.appendingPathComponent("out")
        let options = HarnessOptions(workloadHost: try SuitePipeline.workloadHost(for: plans), commandTimeout: 30)
        var request = SuiteRequest(plans: plans, options: options, out: out, toolVersion: "test")
        request.trace = false
        let outcome = try SuitePipeline.run(request)
        XCTAssertEqual(outcome.report.runs.first?.outcome, .completed)

        let written = try Data(contentsOf: out.appendingPathComponent(RunEvidence.fileName))
        let evidence = try EvidenceFile.decode(written)
        XCTAssertFalse(evidence.records.isEmpty)
        let reference = JSONEncoder()
        reference.outputFormatting = [.sortedKeys]
        XCTAssertTrue(try SortedJSONEncoder().encode(evidence) == reference.encode(evidence), "the evidence, encoded by each")
        XCTAssertTrue(written == (try reference.encode(evidence)), "evidence.json is what JSONEncoder writes for what it holds")

        XCTAssertTrue(try Data(contentsOf: out.appendingPathComponent(ReportFiles.jsonName)) == ReportJSON.encode(outcome.report),
                      "report.json is what JSONEncoder writes for the run's report")
        // What `frugal reaudit` does with the file: the same report again, byte for byte.
        let again = scratch.appendingPathComponent("again")
        _ = try EvidenceReport.write(evidence, tool: ToolInfo(version: "test"), baseline: nil, history: nil, to: again)
        XCTAssertEqual(try Data(contentsOf: again.appendingPathComponent(ReportFiles.jsonName)),
                       try Data(contentsOf: out.appendingPathComponent(ReportFiles.jsonName)), "the re-audit's report.json is the run's")
    }
}
