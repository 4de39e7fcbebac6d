import XCTest
@testable import FrugalCore

/// `disk.write-budget` for an app whose sandbox was watched reads the kernel's view of its files,
/// not `wchar`, which counts socket, pipe and eventfd writes too (MetricExtraction+Disk).
final class WriteBudgetMeasureTests: XCTestCase {
    typealias Kernel = KernelFileActivityTests

    /// An app that saved 12 bytes of state after launch and whose process wrote 4.43 MiB by wchar
    /// (a download's eventfd pokes and its TLS request), 20 KiB of it the event stream.
    static func record(watched: Bool) -> RunRecord {
        let state = FileChange(path: "Library/Application Support/state.json", kind: .created, time: Kernel.start + 2 * Kernel.s,
                               sizeAfter: 12, bytesWritten: 12, existed: false)
        var record = Kernel.record([state], unavailable: watched ? nil : "inotify_init1: EMFILE")
        record.events = [WorkloadEvent(time: Kernel.start + 100 * Kernel.ms, body: .ack(Ack(sequence: 1)))]
        record.finalIO = ProcessIOCounters(time: record.endTime, charactersWritten: 4_645_000, writeSyscalls: 245_000,
                                           physicalBytesWritten: 49_152, cancelledBytesWritten: 0)
        record.eventStreamBytes = 20_480
        return record
    }

    func testTheKernelsViewIsTheBudgetWhereTheSandboxWasWatched() throws {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(watched: true)))
        XCTAssertEqual(metrics[MetricName.diskBytesWrittenPerDay]?.value, 12)
        XCTAssertEqual(metrics[MetricName.diskBytesWrittenPerDay]?.source, FileChangeLog.source)
        let audit = try Kernel.audit(Self.record(watched: true), "disk.write-budget")
        XCTAssertTrue(audit.displayValue.hasPrefix("12 B written after launch"), audit.displayValue)
        XCTAssertTrue(audit.evidence.contains { $0.description.contains("so the kernel's view below is the measure") })
    }

    func testWithoutTheWatchTheJournalAndTheWcharGapRemain() {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(watched: false)))
        // Nothing journaled: the gap is wchar less the event stream, counted whole.
        XCTAssertEqual(metrics[MetricName.diskBytesWrittenPerDay]?.value, Double(4_645_000 - 20_480))
        XCTAssertEqual(metrics[MetricName.diskBytesWrittenPerDay]?.source,
                       MetricExtraction.Source.kitJournal + "+" + MetricExtraction.Source.journalGap)
    }
}
