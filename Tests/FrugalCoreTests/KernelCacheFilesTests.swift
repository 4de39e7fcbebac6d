import XCTest
@testable import FrugalCore

/// `disk.no-cache-files` from the kernel's view: a cache file rewritten by any process fails, with
/// nothing in FrugalKit's journal; storing a new file in Caches, and saving while quitting, do not.
final class KernelCacheFilesTests: XCTestCase {
    typealias K = KernelFileActivityTests

    /// A plain-Foundation image cache: a 512 KiB index in Caches replaced four times a second.
    static let rewrites: [FileChange] = (0..<8).map { (index: Int) -> FileChange in
        let time: UInt64 = K.start + UInt64(index + 1) * 250 * K.ms
        let size = 512 * 1024
        return FileChange(path: "Library/Caches/thumbs/index.plist", kind: index == 0 ? .created : .replaced,
                          time: time, sizeAfter: size, bytesWritten: size, existed: index > 0)
    }

    func testRewritingACacheFileFailsWithoutAnyJournal() throws {
        let audit = try K.audit(K.record(Self.rewrites), "disk.no-cache-files")
        // The first store is placement; the seven rewrites are cache-file writing: 3.5 MiB.
        XCTAssertEqual(audit.numericValue, Double(7 * 512 * 1024))
        XCTAssertLessThan(try XCTUnwrap(audit.score), 0.5, audit.displayValue)
        XCTAssertTrue(audit.evidence.first?.description.contains("(in Caches)") ?? false, audit.evidence.first?.description ?? "")
        let metrics = MetricExtraction.metrics(of: RunAnalysis(K.record(Self.rewrites)))
        XCTAssertEqual(metrics[MetricName.diskCacheBytesWritten]?.source, FileChangeLog.source)
    }

    func testStoringNewFilesInCachesAndWritingElsewherePass() throws {
        let stores = (0..<4).map { index in
            FileChange(path: "Library/Caches/episode-\(index).mp3", kind: .created, time: K.start + UInt64(index + 1) * 300 * K.ms,
                       sizeAfter: 3 * K.mib, bytesWritten: 3 * K.mib, existed: false)
        }
        let notes = FileChange(path: "Documents/notes.json", kind: .replaced, time: K.start + 2 * K.s, sizeAfter: 4096, bytesWritten: 4096, existed: true)
        let audit = try K.audit(K.record(stores + [notes]), "disk.no-cache-files")
        XCTAssertEqual(audit.numericValue, 0)
    }

    func testAProgramsCacheWritesAfterItsTerminateStepAreQuitting() throws {
        var record = K.record(Self.rewrites)
        record.blackBox = true
        // SIGTERM at 0.7 s: the first store (0.25 s) is placement, the rewrite at 0.5 s counts, the
        // six from 0.75 s on are written while quitting, the guide's exception.
        record.steps.append(StepRecord(index: 1, step: .terminate, start: K.start + 700 * K.ms, end: K.start + 3 * K.s))
        let audit = try K.audit(record, "disk.no-cache-files")
        XCTAssertEqual(audit.numericValue, Double(512 * 1024))
    }
}
