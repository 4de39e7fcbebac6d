import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalWorkloads

/// The disk pairs, run for real under their default scenario (`disk-session`): each bad one
/// fails its audit and each good one passes, and the byte counts hold against the apps' own
/// account of what they wrote and against `/proc/<pid>/io` read from outside.
final class DiskWorkloadPairTests: XCTestCase {
    /// Each workload runs once for all the tests that look at it (about 3 s each), as `frugal
    /// run` schedules them, with the other pair classes' runs (``ScheduledRuns/pairs``).
    static let workloads = [
        "notes.rewrite-whole", "notes.append-delta", "prefs.save-every-change", "prefs.save-coalesced",
        "downloads.in-documents", "downloads.in-caches", "export.leaves-tmp", "export.cleans-tmp",
    ]
    static var runs: ScheduledRuns { .pairs }

    static func record(_ workload: String) throws -> RunRecord {
        let record = try runs.record(workload)
        XCTAssertEqual(record.scenario, ScenarioCatalogue.diskSession.name, workload)
        XCTAssertEqual(record.outcome, .completed, "\(workload): \(record.outcomeDetail ?? "")")
        return record
    }

    func report(_ workload: String) throws -> RunReport { ReportBuilder.runReport(try Self.record(workload)) }

    func assertSeparated(bad: String, good: String, by audit: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let badAudit = try XCTUnwrap(try report(bad).audits[audit], file: file, line: line)
        let goodAudit = try XCTUnwrap(try report(good).audits[audit], file: file, line: line)
        XCTAssertLessThan(try XCTUnwrap(badAudit.score, badAudit.explanation ?? ""), 0.5, "\(bad): \(badAudit.displayValue)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(goodAudit.score, goodAudit.explanation ?? ""), 0.9, "\(good): \(goodAudit.displayValue)", file: file, line: line)
        VerdictAssertions.assertClean(bad: try report(bad), good: try report(good), file: file, line: line)
    }

    func testNotesRewritingTheWholeFileFailsWriteOnlyWhatChanged() throws {
        try assertSeparated(bad: "notes.rewrite-whole", good: "notes.append-delta", by: "disk.write-changed-portions")
    }

    func testSavingEveryChangeFailsAvoidFrequentWrites() throws {
        try assertSeparated(bad: "prefs.save-every-change", good: "prefs.save-coalesced", by: "disk.avoid-frequent-writes")
    }

    func testDownloadsInDocumentsFailBackupPlacement() throws {
        try assertSeparated(bad: "downloads.in-documents", good: "downloads.in-caches", by: "disk.backup-placement")
    }

    func testExportLeavingTmpFailsCleanTmp() throws {
        try assertSeparated(bad: "export.leaves-tmp", good: "export.cleans-tmp", by: "disk.clean-tmp")
    }

    /// What the app says it wrote, from its `disk.ground-truth` mark.
    func groundTruth(_ record: RunRecord) throws -> DiskGroundTruth {
        let detail = try XCTUnwrap(record.events.lazy.compactMap { event -> String? in
            if case .mark(let mark) = event.body, mark.name == DiskGroundTruth.markName { return mark.detail }
            return nil
        }.first, "\(record.workload) reported no ground truth")
        return try JSONDecoder().decode(DiskGroundTruth.self, from: Data(detail.utf8))
    }

    func testByteCountsAreExactAndAgreeWithProcWchar() throws {
        for workload in Self.workloads {
            let record = try Self.record(workload)
            let truth = try groundTruth(record)
            let metrics = ReportBuilder.runReport(record).metrics
            XCTAssertGreaterThan(truth.bytesWritten, 0, workload)
            XCTAssertEqual(metrics[MetricName.diskLogicalBytesWritten]?.value, Double(truth.bytesWritten), workload)
            XCTAssertEqual(metrics[MetricName.diskWriteOps]?.value, Double(truth.writes), workload)
            XCTAssertEqual(metrics[MetricName.diskFsyncs]?.value, Double(truth.fsyncs), workload)
            if !workload.hasPrefix("prefs.") {
                // The prefs apps do not diff their own JSON; the others know which blocks they changed.
                let journalChanged = DiskActivity(RunAnalysis(record)).contentWrites.reduce(0) { $0 + $1.changedBytes }
                XCTAssertEqual(journalChanged, truth.changedBytes, "\(workload): changed bytes by block diff")
            }
            // wchar counts the event pipe too; what is left must be the journal's bytes, within 1%.
            let wchar = try XCTUnwrap(metrics[MetricName.diskSyscallBytesWritten]?.value, workload)
            let events = try XCTUnwrap(metrics[MetricName.diskEventStreamBytes]?.value, workload)
            XCTAssertEqual(wchar - events, Double(truth.bytesWritten), accuracy: Double(truth.bytesWritten) * 0.01, workload)
            XCTAssertEqual(try XCTUnwrap(metrics[MetricName.diskUnjournaledBytesWritten]?.value), 0,
                           accuracy: Double(truth.bytesWritten) * 0.01, workload)
            XCTAssertEqual(metrics[MetricName.diskSyscallBytesWritten]?.source, "proc:io.wchar")
            XCTAssertNotNil(metrics[MetricName.diskPhysicalBytesWritten]?.value, "\(workload): write_bytes read at exit")
        }
    }

    func testWriteAmplification() throws {
        let whole = try XCTUnwrap(try report("notes.rewrite-whole").metrics[MetricName.diskWriteAmplification]?.value)
        let delta = try XCTUnwrap(try report("notes.append-delta").metrics[MetricName.diskWriteAmplification]?.value)
        // 6 saves of 4 MiB for 6 × 3 changed 4 KiB blocks: 24 MiB / 72 KiB = 341×.
        XCTAssertGreaterThanOrEqual(whole, 100)
        XCTAssertEqual(whole, 4_194_304.0 / (3 * 4096), accuracy: 0.001)
        XCTAssertLessThanOrEqual(delta, 2)
    }

    /// Both notes apps hold the same 4 MiB note and nothing else that large: rewriting the whole
    /// file costs disk writes, not memory. FrugalKit's journal once read the whole old file to
    /// diff each replacement, in the app's process: one more 4 MiB copy in the bad app's peak,
    /// or two when the allocator could not reuse the freed one (by the timing of other small
    /// allocations), so that gating metric moved by 4 MiB from one `frugal run` to the next.
    func testTheJournalCostsTheAppNoCopyOfTheFile() throws {
        let whole = try XCTUnwrap(try report("notes.rewrite-whole").metrics[MetricName.memoryPeakResidentBytes]?.value)
        let delta = try XCTUnwrap(try report("notes.append-delta").metrics[MetricName.memoryPeakResidentBytes]?.value)
        // Half the note: one copy of it crosses this bound; the journal's 64 KiB chunks do not.
        XCTAssertLessThan(abs(whole - delta), Double(2 << 20), "peak resident: rewrite-whole \(whole), append-delta \(delta)")
    }

    func testBackupAndTmpAreReadFromTheSandboxAtTheEnd() throws {
        let documents = try report("downloads.in-documents")
        XCTAssertEqual(documents.metrics[MetricName.diskRecreatableBackupBytes]?.value, 16 * 1_048_576)
        XCTAssertEqual(documents.metrics[MetricName.diskBackupBytes]?.value, 16 * 1_048_576)
        XCTAssertEqual(try report("downloads.in-caches").metrics[MetricName.diskBackupBytes]?.value, 0)
        let leaves = try report("export.leaves-tmp")
        XCTAssertEqual(leaves.metrics[MetricName.diskTmpBytesAtEnd]?.value, 8 * 1_048_576)
        let file = try XCTUnwrap(leaves.files?.first { $0.path == "tmp/export/archive.zip" })
        XCTAssertEqual(file.bytesAtEnd, 8 * 1_048_576)
        XCTAssertEqual(file.backedUp, false)
        XCTAssertEqual(try report("export.cleans-tmp").files?.first?.bytesAtEnd, nil, "deleted before the end")
        let lane = try XCTUnwrap(leaves.timeline.disk)
        XCTAssertEqual(lane.filter { $0.operation == .append }.count, 8)
    }

    func testExcludedSupportFilesAreNotBackedUp() throws {
        let notes = try report("notes.append-delta")
        let index = try XCTUnwrap(notes.files?.first { $0.path == "Library/Application Support/search-index.bin" })
        XCTAssertEqual(index.exclusion, .extendedAttribute)
        XCTAssertEqual(index.backedUp, false)
        // Only the note itself is backed up.
        XCTAssertEqual(notes.metrics[MetricName.diskBackupBytes]?.value, 4_194_304)
        XCTAssertEqual(notes.metrics[MetricName.diskRecreatableBackupBytes]?.value, 0)
    }

    /// Launch, one input, terminate: what an app wrote at launch and in the input, read at its
    /// exit (`/proc/<pid>/io` and the journal's events are final then). The 2 s idle of
    /// ``ScenarioRunnerTests/short`` these two tests ran under measured nothing they read.
    static let oneInput = Scenario(name: "one-input", summary: "launch, one input, terminate",
                                   steps: [.launch, .input(kind: "tap"), .terminate])

    func testSidecarRecordsExclusionWhereForced() throws {
        let runner = try ScenarioRunnerTests.runner { $0.environment = ["FRUGAL_BACKUP_EXCLUSION": "sidecar"] }
        // The index and its exclusion are written at launch; the input's edit is saved when
        // the app terminates (its 1 s save timer has not fired): through the journal either way.
        let record = try runner.run(RunPlan(target: .builtIn(name: "notes.append-delta"), scenario: Self.oneInput, repetition: 1))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let report = ReportBuilder.runReport(record)
        let index = try XCTUnwrap(report.files?.first { $0.path == "Library/Application Support/search-index.bin" })
        XCTAssertEqual(index.exclusion, .sidecar)
        XCTAssertEqual(index.backedUp, false)
        XCTAssertTrue(record.events.contains { if case .mark(let mark) = $0.body { return mark.name == "disk.backup-exclusion" && (mark.detail ?? "").contains("sidecar") } else { return false } })
        // The sidecar's bytes are journaled: nothing is left unexplained in wchar.
        XCTAssertEqual(report.metrics[MetricName.diskUnjournaledBytesWritten]?.value, 0)
    }

    func testWritesAroundFrugalKitShowAsTheGap() throws {
        // Both writes are made in the input's handler.
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .builtIn(name: "fixture.disk-bypass"),
                                                                  scenario: Self.oneInput, repetition: 1))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let metrics = ReportBuilder.runReport(record).metrics
        XCTAssertEqual(metrics[MetricName.diskLogicalBytesWritten]?.value, 65_536)
        // Foundation's 1 MiB write is invisible to the journal and shows in wchar.
        let gap = try XCTUnwrap(metrics[MetricName.diskUnjournaledBytesWritten]?.value)
        XCTAssertEqual(gap, 1_048_576, accuracy: 1_048_576 * 0.01)
        XCTAssertEqual(metrics[MetricName.diskUnjournaledBytesWritten]?.source, "proc:io.wchar-harness:event-stream-kit:journal")
    }
}
