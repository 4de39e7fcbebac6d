import Foundation
import FrugalConfig
import FrugalCore
import FrugalHistory
import FrugalPipeline
import FrugalWorkloads
import XCTest

/// `frugal verdicts`, `history` and `record`'s sequencing as a library, called without the CLI:
/// the committed baseline report (Reports/baseline.json, a real run of the built-in suite) is
/// checked, recorded into a real history database and read back.
final class CommandSessionsTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-commands-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func baseline() throws -> Report {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Reports/baseline.json")
        return try VerdictCheck.report(streamed: try Data(contentsOf: path), from: "baseline.json")
    }

    private func write(_ text: String, to name: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testVerdictsUseTheBuiltInPairsOrAFrugalYmlsVerdicts() throws {
        let builtIn = try VerdictCheck.expectations(configPath: nil)
        XCTAssertEqual(builtIn.pairs, WorkloadCatalogue.pairs)
        XCTAssertEqual(builtIn.alsoGood, WorkloadCatalogue.goodWithoutTwin)

        let config = try write("""
        apps:
          - {name: tail, kind: program, executable: /bin/true, verdict: good}
          - {name: loop, kind: program, executable: /bin/true, verdict: {fails: power.avoid-polling, twin: tail}}
        """, to: "frugal.yml")
        let project = try VerdictCheck.expectations(configPath: config)
        XCTAssertEqual(project.pairs, [WorkloadPair(bad: "loop", good: "tail", audit: "power.avoid-polling")])

        // The baseline holds none of the file's apps: the matrix is not clean (they are missing).
        let matrix = try VerdictCheck.matrix(of: try baseline(), configPath: config)
        XCTAssertFalse(matrix.isClean)

        let unjudged = try write("apps:\n  - {name: tail, kind: program, executable: /bin/true}\n", to: "plain.yml")
        XCTAssertThrowsError(try VerdictCheck.expectations(configPath: unjudged)) { error in
            XCTAssertEqual((error as? PipelineFailure)?.kind, .badInput)
            XCTAssertTrue("\(error)".contains("gives no app a verdict"), "\(error)")
        }
    }

    func testAStreamedReportIsBoundedAndNamed() throws {
        XCTAssertThrowsError(try VerdictCheck.report(streamed: nil, from: "standard input")) { error in
            XCTAssertTrue("\(error)".contains("standard input is empty"), "\(error)")
        }
        XCTAssertThrowsError(try VerdictCheck.report(streamed: Data("not json".utf8), from: "standard input")) { error in
            XCTAssertEqual((error as? PipelineFailure)?.kind, .badInput)
            XCTAssertTrue("\(error)".contains("is not a Frugal report"), "\(error)")
        }
        XCTAssertFalse(try baseline().results.isEmpty)
    }

    func testHistoryReadsBackWhatARunRecorded() throws {
        let db = scratch.appendingPathComponent("history.sqlite").path
        XCTAssertThrowsError(try HistoryQuery.read(path: db, limit: 5, workload: nil)) { error in
            XCTAssertTrue("\(error)".contains("no history at"), "\(error)")
        }
        let report = try baseline()
        let store = try HistoryStore(path: db)
        _ = try store.append(report, commit: "0123456789abcdef", recordedAt: "2026-01-02T03:04:05Z")
        let workload = try XCTUnwrap(report.results.first?.workload)
        let history = try HistoryQuery.read(path: db, limit: 5, workload: workload)
        XCTAssertFalse(history.series.isEmpty)
        XCTAssertTrue(history.series.allSatisfy { $0.workload == workload })
        let text = HistoryQuery.render(history)
        XCTAssertTrue(text.hasPrefix("\(workload) · "), text)
        XCTAssertTrue(text.contains("(latest 2026-01-02T03:04:05Z @0123456)"), text)
        XCTAssertEqual(HistoryQuery.render(ReportHistory(series: [])), "no runs recorded\n")
    }

    func testRecordingOptionsGoBeforeTheCommandAndTheFileMustBeFresh() throws {
        XCTAssertEqual(HARRecording.runArguments(["--quiet", "--", "curl", "-s"], upstream: "http://u", path: "/tmp/a.har"),
                       ["--quiet", "--record-upstream", "http://u", "--record-to", "/tmp/a.har", "--", "curl", "-s"])
        XCTAssertEqual(HARRecording.runArguments(["--workload", "x"], upstream: "http://u", path: "p"),
                       ["--workload", "x", "--record-upstream", "http://u", "--record-to", "p"])

        let started = Date()
        let path = scratch.appendingPathComponent("api.har").path
        XCTAssertThrowsError(try HARRecording.confirmWritten(path, since: started)) { error in
            XCTAssertEqual((error as? PipelineFailure)?.kind, .harness)
        }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertNoThrow(try HARRecording.confirmWritten(path, since: started))
        // A file left from before the run is not this run's recording.
        try FileManager.default.setAttributes([.modificationDate: started.addingTimeInterval(-60)], ofItemAtPath: path)
        XCTAssertThrowsError(try HARRecording.confirmWritten(path, since: started))
    }
}
