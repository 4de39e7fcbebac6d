import XCTest
@testable import FrugalCore

/// The disk audits over the kernel's view of a run's files (``FileChangeLog``: inotify on the
/// sandbox, block diffs), on hand-made records with nothing in FrugalKit's journal: an app that
/// writes with Foundation is judged as one writing through FileStore would be.
final class KernelFileActivityTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000
    static let ms: UInt64 = 1_000_000
    static let start: UInt64 = 10 * s
    static let mib = 1 << 20

    static func record(_ changes: [FileChange], files: [SandboxFileRecord] = [], seconds: UInt64 = 4,
                       unavailable: String? = nil) -> RunRecord {
        var record = RunRecord(workload: "w", scenario: "disk-session", repetition: 1, startTime: start, endTime: start + seconds * s, pid: 1,
                               steps: [StepRecord(index: 0, step: .launch, start: start, end: start + 100 * ms)], events: [], samples: [],
                               outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        record.fileChanges = FileChangeLog(changes: changes, unavailable: unavailable)
        record.sandboxFiles = files
        return record
    }

    static func audit(_ record: RunRecord, _ id: String) throws -> AuditResult {
        let analysis = RunAnalysis(record)
        return try XCTUnwrap(Audits.evaluate(analysis, metrics: MetricExtraction.metrics(of: analysis))[id], id)
    }

    static func blocks(_ count: Int) -> BlockDiff {
        BlockDiff(blockSize: 4096, changedBlocks: count, changedBlockBytes: count * 4096, differingBytes: count * 30)
    }

    /// `journal.rewrites-file`: six edits, each a 4 MiB `.atomic` save (a temporary file renamed
    /// over the journal) that changed one 4 KiB block.
    static let rewrites = (0..<6).map { edit in
        FileChange(path: "Documents/journal.db", kind: .replaced, time: start + UInt64(edit + 1) * 250 * ms, sizeAfter: 4 * mib,
                   bytesWritten: 4 * mib, existed: true, diff: blocks(1), via: "Documents/.journal.db.tmp")
    }
    /// `journal.patches-record`: the same edits as 1 KiB records written in place (one block each).
    static let patches = (0..<6).map { edit in
        FileChange(path: "Documents/journal.db", kind: .inPlace, time: start + UInt64(edit + 1) * 250 * ms, sizeAfter: 4 * mib,
                   bytesWritten: 4096, existed: true, diff: blocks(1))
    }

    func testRewritingTheWholeFileFailsWriteOnlyWhatChanged() throws {
        let bad = try Self.audit(Self.record(Self.rewrites), "disk.write-changed-portions")
        // 6 × 4 MiB written for 6 × 4 KiB changed: 1024×.
        XCTAssertEqual(try XCTUnwrap(bad.numericValue), 1024, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(bad.score), 0.5, bad.displayValue)
        XCTAssertTrue(bad.evidence.first?.description.contains("renamed from Documents/.journal.db.tmp") ?? false,
                      bad.evidence.first?.description ?? "")
        let good = try Self.audit(Self.record(Self.patches), "disk.write-changed-portions")
        XCTAssertEqual(try XCTUnwrap(good.numericValue), 1, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(good.score), 0.9, good.displayValue)
    }

    /// A save that changed nothing is charged the least a write can store, one block (or the
    /// whole file when it is shorter), not divided by zero: a 94 B state file saved again in
    /// willTerminate with the same content read 94× when its JSON keys came out in the same order
    /// (one run in five) and 1× otherwise. A large file rewritten unchanged still fails.
    func testASaveThatChangedNothingCountsOneBlock() throws {
        func resave(size: Int) -> [FileChange] {
            [FileChange(path: "Library/Application Support/state.json", kind: .created, time: Self.start + Self.s, sizeAfter: size,
                        bytesWritten: size, existed: false),
             FileChange(path: "Library/Application Support/state.json", kind: .replaced, time: Self.start + 2 * Self.s, sizeAfter: size,
                        bytesWritten: size, existed: true,
                        diff: BlockDiff(blockSize: 4096, changedBlocks: 0, changedBlockBytes: 0, differingBytes: 0))]
        }
        let small = try Self.audit(Self.record(resave(size: 94)), "disk.write-changed-portions")
        XCTAssertEqual(try XCTUnwrap(small.numericValue), 1, accuracy: 1e-9, small.displayValue)
        XCTAssertTrue(small.displayValue.contains("a write that changed nothing counted as one block"), small.displayValue)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(small.score), 0.9)
        let large = try Self.audit(Self.record(resave(size: 4 * Self.mib)), "disk.write-changed-portions")
        XCTAssertEqual(try XCTUnwrap(large.numericValue), 1024, accuracy: 1e-9, large.displayValue)
        XCTAssertLessThan(try XCTUnwrap(large.score), 0.5)
        XCTAssertEqual(DiskActivity.leastStored(written: 0, changed: 0), 0, "a close that stored nothing is charged nothing")
        XCTAssertEqual(DiskActivity.leastStored(written: 10, changed: 10), 10)
        XCTAssertEqual(DiskActivity.leastStored(written: 8192, changed: 0), 4096)
    }

    /// The kernel's view and FrugalKit's journal are both lower bounds of the writes an app
    /// made: the watcher can read two saves at once on a busy machine, and the journal sees only
    /// FileStore. A bad app's 60 saves that the watcher read as 17 are 60.
    func testAvoidFrequentWritesCountsTheLargerOfTheKernelsViewAndTheJournal() throws {
        let path = "Library/Application Support/preferences.json"
        let seen = (0..<17).map { save in
            FileChange(path: path, kind: .replaced, time: Self.start + UInt64(save + 1) * 10 * Self.ms, sizeAfter: 784, bytesWritten: 784,
                       existed: true, diff: Self.blocks(1), via: "Library/Application Support/.preferences.json.frugal-replace")
        }
        var record = Self.record(seen)
        record.events = (0..<60).map { save in
            let at = Self.start + UInt64(save + 1) * 10 * Self.ms
            return WorkloadEvent(time: at, body: .fileWrite(FileWrite(path: path, dataClass: .critical, excludedFromBackup: false, operation: .replace,
                                                                      offset: 0, length: 784, synced: true, existed: save > 0, diff: nil,
                                                                      sizeAfter: 784, thread: 1, onMainThread: true, start: at, end: at + Self.ms,
                                                                      callSite: "Prefs.swift:49")))
        }
        let audit = try Self.audit(record, "disk.avoid-frequent-writes")
        XCTAssertEqual(audit.numericValue, 60, audit.displayValue)
        XCTAssertTrue(audit.evidence.contains { $0.description.contains("FrugalKit's journal counted 60") }, "\(audit.evidence.map(\.description))")
        let kernelOnly = try Self.audit(Self.record(seen), "disk.avoid-frequent-writes")
        XCTAssertEqual(kernelOnly.numericValue, 17, "without a journal, the kernel's view is the count")
    }

    func testANewFileIsNoUpdate() throws {
        let created = FileChange(path: "Library/Caches/episode-1.mp3", kind: .created, time: Self.start + Self.s, sizeAfter: 3 * Self.mib,
                                 bytesWritten: 3 * Self.mib, existed: false)
        let audit = try Self.audit(Self.record([created]), "disk.write-changed-portions")
        XCTAssertEqual(audit.scoreDisplayMode, .notApplicable)
        XCTAssertEqual(audit.explanation, "every write created a new file: nothing was rewritten")
    }

    func testATruncatingRewriteInPlaceCountsFromTheTruncation() throws {
        // Truncated to 0 and written again in place (O_TRUNC): 4 MiB put on storage for one changed block.
        let rewrite = FileChange(path: "Documents/a", kind: .inPlace, time: Self.start + Self.s, sizeAfter: 4 * Self.mib,
                                 bytesWritten: 4 * Self.mib, existed: true, diff: Self.blocks(1), truncated: true)
        let audit = try Self.audit(Self.record([rewrite]), "disk.write-changed-portions")
        XCTAssertEqual(try XCTUnwrap(audit.numericValue), 1024, accuracy: 1e-9)
        XCTAssertTrue(audit.evidence.first?.description.contains("truncated first") ?? false)
    }

    /// `settings.saves-each-change`: ten JSON saves per slider drag, six drags 0.25 s apart.
    func testSavingEachChangeFailsAvoidFrequentWrites() throws {
        let saves = (0..<60).map { (save: Int) -> FileChange in
            let time: UInt64 = Self.start + UInt64(save / 10 + 1) * 250 * Self.ms + UInt64(save % 10) * Self.ms
            return FileChange(path: "Library/Application Support/settings.json", kind: save == 0 ? .created : .replaced,
                              time: time, sizeAfter: 140, bytesWritten: 140, existed: save > 0, diff: save == 0 ? nil : Self.blocks(1))
        }
        let bad = try Self.audit(Self.record(saves), "disk.avoid-frequent-writes")
        XCTAssertEqual(bad.numericValue, 60)
        XCTAssertLessThan(try XCTUnwrap(bad.score), 0.5, bad.displayValue)
        // Debounced: one save once the drags pause.
        let good = try Self.audit(Self.record(Array(saves.prefix(1))), "disk.avoid-frequent-writes")
        XCTAssertEqual(good.numericValue, 1)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(good.score), 0.9, good.displayValue)
        XCTAssertEqual(RunAnalysis(Self.record(saves)).record.fileChanges?.changes.count, 60)
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(saves)))
        XCTAssertEqual(metrics[MetricName.diskWriteOpsBusiestMinute]?.value, 60)
        XCTAssertEqual(metrics[MetricName.diskWriteOpsBusiestMinute]?.source, FileChangeLog.source)
    }

    func testLargeWritesAreNotSmallChanges() throws {
        // Four 3 MiB downloads: judged by their volume (write budget), not as frequent small writes.
        let downloads = (0..<4).map { index in
            FileChange(path: "Library/Caches/episode-\(index).mp3", kind: .created, time: Self.start + UInt64(index + 1) * 300 * Self.ms,
                       sizeAfter: 3 * Self.mib, bytesWritten: 3 * Self.mib, existed: false)
        }
        let audit = try Self.audit(Self.record(downloads), "disk.avoid-frequent-writes")
        XCTAssertEqual(audit.numericValue, 0)
    }

    /// Writes the watcher read together with an earlier close (their bytes are in that close's
    /// change, theirs 0) share its bytes: an export appending 1 MiB chunks whose reads fell behind
    /// is no small writer, and saves of a few bytes read two at a time are still two small writes.
    func testWritesReadTogetherShareTheBytesTheReadFound() throws {
        func lateRead(_ path: String, _ time: UInt64, size: Int) -> FileChange {
            var change = FileChange(path: path, kind: .inPlace, time: time, sizeAfter: size, bytesWritten: 0, existed: true, diff: Self.blocks(0))
            change.readWithEarlierClose = true
            return change
        }
        let archive = "tmp/export/archive.zip"
        // Eight 1 MiB appends: the first close read after the next two were made (3 MiB found).
        var export = [FileChange(path: archive, kind: .created, time: Self.start + 100 * Self.ms, sizeAfter: 3 * Self.mib,
                                 bytesWritten: 3 * Self.mib, existed: false)]
        export += (1...2).map { lateRead(archive, Self.start + UInt64(100 + $0) * Self.ms, size: 3 * Self.mib) }
        export += (3..<8).map { chunk in
            FileChange(path: archive, kind: .inPlace, time: Self.start + UInt64(100 + chunk) * Self.ms, sizeAfter: (chunk + 1) * Self.mib,
                       bytesWritten: Self.mib, existed: true, diff: Self.blocks(256))
        }
        let good = try Self.audit(Self.record(export), "disk.avoid-frequent-writes")
        XCTAssertEqual(good.numericValue, 0, good.displayValue)
        XCTAssertEqual(KernelFileActivity(FileChangeLog(changes: export, unavailable: nil)).writes.count, 8)
        // The shares change which writes are small, not what was written or changed.
        let disk = KernelFileActivity(FileChangeLog(changes: export, unavailable: nil))
        XCTAssertEqual(disk.writes.reduce(0) { $0 + $1.bytesWritten }, 8 * Self.mib)
        // Ten 140-byte settings saves in place, each pair read as one (the first of each pair found one block).
        let settings = "Library/Application Support/settings.json"
        let saves = (0..<10).map { save -> FileChange in
            let time = Self.start + UInt64(save + 1) * Self.ms
            return save % 2 == 1 ? lateRead(settings, time, size: 140)
                : FileChange(path: settings, kind: .inPlace, time: time, sizeAfter: 140, bytesWritten: 4096, existed: true, diff: Self.blocks(1))
        }
        let bad = try Self.audit(Self.record(saves), "disk.avoid-frequent-writes")
        XCTAssertEqual(bad.numericValue, 10, bad.displayValue)
    }

    func testNothingWrittenIsNotApplicable() throws {
        let audit = try Self.audit(Self.record([]), "disk.avoid-frequent-writes")
        XCTAssertEqual(audit.scoreDisplayMode, .notApplicable)
        XCTAssertEqual(audit.explanation, Audits.nothingWritten)
        // A deletion alone writes nothing.
        let deletion = FileChange(path: "tmp/x", kind: .deleted, time: Self.start + Self.s, sizeAfter: nil, bytesWritten: 0, existed: true)
        XCTAssertEqual(try Self.audit(Self.record([deletion]), "disk.write-changed-portions").scoreDisplayMode, .notApplicable)
    }

    /// `URLSession` on Linux: swift-corelibs-foundation's cookie store rewrites its file each time
    /// a response sets a lasting cookie, the same cookie or not. Those are the platform's writes.
    func testFoundationsCookieStoreIsThePlatformsNotTheApps() throws {
        let store = "Library/Application Support/Bundle/.cookies.shared"
        let rewrites = (1...5).map { (index: Int) -> FileChange in
            let time: UInt64 = Self.start + UInt64(index) * 700 * Self.ms
            let kind: FileChange.Kind = index == 1 ? .created : .replaced
            let diff: BlockDiff? = index == 1 ? nil : Self.blocks(0)
            return FileChange(path: store, kind: kind, time: time, sizeAfter: 547, bytesWritten: 547, existed: index > 1, diff: diff)
        }
        let audit = try Self.audit(Self.record(rewrites, seconds: 30), "disk.avoid-frequent-writes")
        XCTAssertEqual(audit.scoreDisplayMode, .notApplicable, audit.displayValue)
        XCTAssertTrue(audit.explanation?.contains("5 writes of \(store), Foundation's cookie store") ?? false, audit.explanation ?? "")
        // Beside the app's own saves, they are named and not counted.
        let save = FileChange(path: "Documents/notes.json", kind: .replaced, time: Self.start + 4 * Self.s, sizeAfter: 900, bytesWritten: 900,
                              existed: true, diff: Self.blocks(1))
        let both = try Self.audit(Self.record(rewrites + [save], seconds: 30), "disk.avoid-frequent-writes")
        XCTAssertEqual(both.numericValue, 1, both.displayValue)
        XCTAssertTrue(both.evidence.contains { $0.description.contains("the platform's, not counted") }, "\(both.evidence)")
        // Only that file: a file of the app's own with a like name elsewhere is the app's.
        XCTAssertFalse(KernelFileActivity.isPlatformStore("Documents/.cookies.shared"))
        XCTAssertFalse(KernelFileActivity.isPlatformStore("Library/Application Support/Bundle/cookies.json"))
        XCTAssertTrue(KernelFileActivity.isPlatformStore(store))
    }

    func testWithoutTheKernelsViewTheJournalDecides() throws {
        // The sandbox could not be watched: FrugalKit's journal (empty here) is all there is.
        let audit = try Self.audit(Self.record(Self.rewrites, unavailable: "inotify_init1: Too many open files (errno 24)"),
                                   "disk.write-changed-portions")
        XCTAssertEqual(audit.scoreDisplayMode, .notApplicable)
        XCTAssertEqual(audit.explanation, Audits.nothingJournaled)
    }

    /// `podcasts.in-documents`: four 3 MiB episodes downloaded verbatim into Documents.
    func testDownloadsKeptVerbatimInDocumentsFailBackupPlacement() throws {
        let downloads = (1...4).map { index in
            FileChange(path: "Documents/episode-\(index).mp3", kind: .created, time: Self.start + UInt64(index) * 300 * Self.ms,
                       sizeAfter: 3 * Self.mib, bytesWritten: 3 * Self.mib, existed: false)
        }
        let served = (1...4).map { SandboxFileRecord(path: "Documents/episode-\($0).mp3", bytes: 3 * Self.mib, servedAs: "GET api.corpus.test/random/3145728") }
        let bad = try Self.audit(Self.record(downloads, files: served), "disk.backup-placement")
        XCTAssertEqual(bad.numericValue, Double(12 * Self.mib))
        XCTAssertLessThan(try XCTUnwrap(bad.score), 0.5, bad.displayValue)
        XCTAssertTrue(bad.evidence.first?.description.contains("downloaded verbatim") ?? false, bad.evidence.first?.description ?? "")
        // The same bytes in Library/Caches are not backed up.
        let cached = (1...4).map { SandboxFileRecord(path: "Library/Caches/episode-\($0).mp3", bytes: 3 * Self.mib, servedAs: nil) }
        let good = try Self.audit(Self.record(downloads, files: cached), "disk.backup-placement")
        XCTAssertEqual(good.numericValue, 0)
        // The user's own document in Documents (no response holds its bytes) is critical data, in its place.
        let own = try Self.audit(Self.record(Self.patches, files: [SandboxFileRecord(path: "Documents/journal.db", bytes: 4 * Self.mib)]),
                                 "disk.backup-placement")
        XCTAssertEqual(own.numericValue, 0)
    }

    /// `podcasts.excluded-support`: the same downloads in Application Support, excluded as the
    /// guide says with `isExcludedFromBackup`, which Foundation ignores on Linux: the file left is
    /// the same as an app's that never excluded it, so the bytes backed up are not known.
    func testDownloadsInApplicationSupportWithoutAVisibleExclusionAreUnknownNotBackedUp() throws {
        let support = "Library/Application Support/Episodes"
        let downloads = (1...4).map { index in
            FileChange(path: "\(support)/episode-\(index).mp3", kind: .created, time: Self.start + UInt64(index) * 300 * Self.ms,
                       sizeAfter: 3 * Self.mib, bytesWritten: 3 * Self.mib, existed: false)
        }
        let served = (1...4).map { SandboxFileRecord(path: "\(support)/episode-\($0).mp3", bytes: 3 * Self.mib, servedAs: "GET api.corpus.test/random/3145728") }
        let record = Self.record(downloads, files: served)
        let unknown = try Self.audit(record, "disk.backup-placement")
        XCTAssertEqual(unknown.scoreDisplayMode, .unavailable, unknown.explanation ?? "")
        XCTAssertNil(unknown.score)
        XCTAssertTrue(unknown.explanation?.contains("12 MiB of downloaded data in Application Support (4 files)") ?? false, unknown.explanation ?? "")
        XCTAssertTrue(unknown.explanation?.contains("isExcludedFromBackup") ?? false, unknown.explanation ?? "")
        let metric = try XCTUnwrap(MetricExtraction.metrics(of: RunAnalysis(record))[MetricName.diskRecreatableBackupBytes])
        XCTAssertNil(metric.value)
        // Excluded where Frugal can see it (the extended attribute): not backed up, and known.
        let excluded = served.map { SandboxFileRecord(path: $0.path, bytes: $0.bytes, exclusion: .extendedAttribute, servedAs: $0.servedAs) }
        XCTAssertEqual(try Self.audit(Self.record(downloads, files: excluded), "disk.backup-placement").numericValue, 0)
        // Beside a download kept in Documents, which is counted, they are named and left out.
        let mixed = served + [SandboxFileRecord(path: "Documents/episode-9.mp3", bytes: 3 * Self.mib, servedAs: "GET api.corpus.test/random/3145728")]
        let both = try Self.audit(Self.record(downloads, files: mixed), "disk.backup-placement")
        XCTAssertEqual(both.numericValue, Double(3 * Self.mib))
        XCTAssertEqual(both.evidence.filter { $0.description.contains("not counted") }.count, 4, "\(both.evidence)")
        // A program has no iOS API to exclude them with: its downloads in $XDG_DATA_HOME count.
        var program = record
        program.blackBox = true
        XCTAssertEqual(try Self.audit(program, "disk.backup-placement").numericValue, Double(12 * Self.mib))
    }
}
