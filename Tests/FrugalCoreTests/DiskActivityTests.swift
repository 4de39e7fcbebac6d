import XCTest
@testable import FrugalCore

/// The disk analysis over a hand-made journal and end-of-run scan.
final class DiskActivityTests: XCTestCase {
    static let second: UInt64 = 1_000_000_000

    static func write(_ path: String, _ operation: FileWrite.Operation, at seconds: Double, length: Int, existed: Bool,
                      changed: Int? = nil, dataClass: FileDataClass = .critical, synced: Bool = false) -> FileWrite {
        let diff = changed.map { BlockDiff(blockSize: 4096, changedBlocks: ($0 + 4095) / 4096, changedBlockBytes: $0, differingBytes: 1) }
        let start = UInt64(seconds * 1e9)
        return FileWrite(path: path, dataClass: dataClass, excludedFromBackup: false, operation: operation, offset: 0,
                         length: length, synced: synced, existed: existed, diff: diff, sizeAfter: length, thread: 1,
                         onMainThread: true, start: start, end: start + 1000, callSite: "Test.swift:1")
    }

    static let activity = DiskActivity(
        journal: [
            write("Documents/a", .replace, at: 1, length: 100, existed: false, changed: 100, synced: true),
            write("Documents/a", .replace, at: 2, length: 100, existed: true, changed: 100, synced: true),
            write("Library/Caches/c", .write, at: 3, length: 8192, existed: true, changed: 4096),
            write("Documents/d", .replace, at: 4, length: 300, existed: false, changed: 300, dataClass: .cache, synced: true),
            write("tmp/x", .append, at: 61.5, length: 50, existed: false, dataClass: .temporary),
            write("tmp/x", .fsync, at: 62, length: 0, existed: true, dataClass: .temporary, synced: true),
            write("Library/Caches/c", .append, at: 70, length: 10, existed: true, dataClass: .cache),
        ],
        terminationStart: 69 * second,
        sandboxFiles: [
            SandboxFileRecord(path: "Bundle/r", bytes: 5),
            SandboxFileRecord(path: "Documents/a", bytes: 100),
            SandboxFileRecord(path: "Documents/d", bytes: 300),
            SandboxFileRecord(path: "Documents/unknown.bin", bytes: 7),
            SandboxFileRecord(path: "Library/Application Support/s", bytes: 40, exclusion: .extendedAttribute),
            SandboxFileRecord(path: "Library/Caches/c", bytes: 8202),
        ])

    func testCountsAndBytes() {
        let activity = Self.activity
        // 100 + 100 + 8192 + 300 + 50 + 10 content bytes in 6 content writes.
        XCTAssertEqual(activity.logicalBytesWritten, 8752)
        XCTAssertEqual(activity.writeOperations, 6)
        // Three synced replacements and one fsync.
        XCTAssertEqual(activity.fsyncs, 4)
    }

    func testBusiestMinute() {
        // Content writes at 1, 2, 3, 4, 61.5, 70 s: [1, 61) holds four; [2, 62) holds 2, 3, 4, 61.5: four too.
        let busiest = Self.activity.busiestWindow()
        XCTAssertEqual(busiest.count, 4)
        XCTAssertEqual(busiest.start, 1 * Self.second)
        XCTAssertEqual(DiskActivity(journal: [], terminationStart: nil, sandboxFiles: nil).busiestWindow().count, 0)
    }

    func testAmplificationCountsOnlyUpdates() throws {
        // Updates: a's second replace (100 for 100), c's write (8192 for 4096), c's append (10 for 10).
        let amplification = try XCTUnwrap(Self.activity.amplification)
        XCTAssertEqual(amplification.written, 8302)
        XCTAssertEqual(amplification.changed, 4206)
    }

    func testCacheWritesOutsideTermination() {
        // c's write in Caches and d (cache data in Documents); c's append at 70 s is after willTerminate began at 69 s.
        XCTAssertEqual(Self.activity.cacheWritesOutsideTermination.map(\.length), [8192, 300])
    }

    func testFilesBackupAndTmp() {
        let activity = Self.activity
        // Backed up: Documents/a, d, unknown.bin (100 + 300 + 7); s is excluded, c is in Caches, r in the bundle.
        XCTAssertEqual(activity.backupBytes, 407)
        XCTAssertEqual(activity.recreatableBackedUpFiles.map(\.path), ["Documents/d"])
        XCTAssertEqual(activity.tmpFilesAtEnd, [])
        let files = Dictionary(uniqueKeysWithValues: activity.files.map { ($0.path, $0) })
        XCTAssertNil(files["Bundle/r"], "bundle resources are not the app's files")
        XCTAssertEqual(files["tmp/x"], FileSummary(path: "tmp/x", location: .tmp, dataClass: .temporary, writes: 1, bytesWritten: 50,
                                                   changedBytes: 50, fsyncs: 1, bytesAtEnd: nil, backedUp: false))
        XCTAssertEqual(files["Library/Caches/c"]?.bytesWritten, 8202)
        XCTAssertEqual(files["Library/Caches/c"]?.changedBytes, 4106)
        XCTAssertEqual(files["Documents/unknown.bin"]?.dataClass, nil)
        XCTAssertEqual(files["Documents/unknown.bin"]?.backedUp, true)
        XCTAssertEqual(files["Library/Application Support/s"]?.exclusion, .extendedAttribute)
    }

    func testLocations() {
        XCTAssertEqual(SandboxLocation(relativePath: "Documents/notes.txt"), .documents)
        XCTAssertEqual(SandboxLocation(relativePath: "Library/Application Support/p.json"), .applicationSupport)
        XCTAssertEqual(SandboxLocation(relativePath: "Library/Caches/x"), .caches)
        XCTAssertEqual(SandboxLocation(relativePath: "Library/Preferences/x"), .library)
        XCTAssertEqual(SandboxLocation(relativePath: "tmp/a/b"), .tmp)
        XCTAssertEqual(SandboxLocation(relativePath: "Documentsx/a"), .other)
        XCTAssertEqual(SandboxLocation(relativePath: BackupExclusion.sidecarPath), .other)
    }

    func testUnjournaledBytesIsTheGapLeftInWchar() {
        XCTAssertEqual(MetricExtraction.unjournaledBytes(wchar: 10_500, eventStream: 400, journal: 10_000), 100)
        XCTAssertNil(MetricExtraction.unjournaledBytes(wchar: nil, eventStream: 400, journal: 10_000))
    }

    func testAuditsAreNotApplicableWhenNothingWasWritten() {
        let record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: 0, endTime: 2 * Self.second, pid: nil,
                               steps: [], events: [], samples: [], outcome: .completed, outcomeDetail: nil,
                               exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        let report = ReportBuilder.runReport(record)
        for rule in RuleCatalogue.disk {
            XCTAssertEqual(report.audits[rule.id]?.scoreDisplayMode, .notApplicable, rule.id)
        }
        XCTAssertNil(report.files)
    }
}
