import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// The sandbox watcher on a real directory: each kind of write, as inotify reports it.
final class SandboxFileWatcherTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        // Each test waits 300 ms for the watcher's thread to catch up: timed without a run.
        holdTheMachine()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-watcher-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Bundle"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// Lets the watcher's thread read what the kernel queued. Not needed for the counts (each
    /// change is folded in whenever it is read) but for the diffs to see each state once: the
    /// watcher runs at nice 10, so 300 ms leaves it room on a busy machine.
    func settle() { usleep(300_000) }

    func testEachKindOfWrite() throws {
        let old = Data((0..<8192).map { UInt8($0 % 251) })
        try old.write(to: url("Documents/a.db"))
        try Data(repeating: 1, count: 100).write(to: url("Bundle/resource"))
        let watcher = try SandboxFileWatcher.start(root: root).get()

        // In place: 10 bytes in the second block.
        let handle = try FileHandle(forWritingTo: url("Documents/a.db"))
        try handle.seek(toOffset: 5000)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 10))
        try handle.close()
        settle()
        // Atomic: a temporary file renamed over it, one byte different from what is there now.
        var next = try Data(contentsOf: url("Documents/a.db"))
        next[0] ^= 1
        try next.write(to: url("Documents/a.db"), options: .atomic)
        settle()
        // A new directory and a file in it at once, then deleted.
        try FileManager.default.createDirectory(at: url("Documents/sub"), withIntermediateDirectories: false)
        try Data(repeating: 7, count: 3000).write(to: url("Documents/sub/new.txt"))
        settle()
        try FileManager.default.removeItem(at: url("Documents/sub/new.txt"))
        // The bundle is not watched.
        try Data(repeating: 2, count: 100).write(to: url("Bundle/resource"))
        settle()

        let log = watcher.finish()
        XCTAssertNil(log.unavailable)
        let changes = log.changes.map { "\($0.kind.rawValue) \($0.path) \($0.bytesWritten)" }
        XCTAssertEqual(changes, ["in-place Documents/a.db 4096", "replaced Documents/a.db 8192", "created Documents/sub/new.txt 3000",
                                 "deleted Documents/sub/new.txt 0"])
        XCTAssertEqual(log.changes[0].diff, BlockDiff(blockSize: 4096, changedBlocks: 1, changedBlockBytes: 4096, differingBytes: 10))
        XCTAssertEqual(log.changes[1].diff?.changedBlocks, 1)
        XCTAssertEqual(log.changes[1].diff?.differingBytes, 1)
        XCTAssertNotNil(log.changes[1].via)
        XCTAssertEqual(watcher.finish(), log, "finish is idempotent")
    }

    /// A file found, half written, when its new directory is first watched: one creation of its
    /// whole size once it is closed, not a creation and an update.
    func testAFileFoundWhileBeingWrittenIsOneCreation() throws {
        let watcher = try SandboxFileWatcher.start(root: root)
            .get()
        try FileManager.default.createDirectory(at: url("Documents/downloads"), withIntermediateDirectories: false)
        let fd = open(url("Documents/downloads/part.bin").path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        try handle.write(contentsOf: Data(repeating: 1, count: 1000))
        settle()  // the watcher adds the directory's watch and finds the file at 1000 bytes
        try handle.write(contentsOf: Data(repeating: 2, count: 1000))
        try handle.close()
        try FileManager.default.moveItem(at: url("Documents/downloads/part.bin"), to: url("Documents/downloads/map.bin"))
        settle()
        let changes = watcher.finish().changes.map { "\($0.kind.rawValue) \($0.path) \($0.bytesWritten)" }
        XCTAssertEqual(changes, ["created Documents/downloads/map.bin 2000"])
    }

    /// A scratch file unlinked while still open for writing: no close event follows (inotify
    /// reports nothing of an unlinked file, so writes after the unlink are not seen), yet what was
    /// written before it is counted, read through the watcher's own descriptor on the file.
    func testAFileDeletedWhileOpenIsStillCounted() throws {
        try FileManager.default.createDirectory(at: url("tmp"), withIntermediateDirectories: false)
        let watcher = try SandboxFileWatcher.start(root: root).get()
        let fd = open(url("tmp/scratch").path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        try handle.write(contentsOf: Data(repeating: 3, count: 5000))
        settle()  // the watcher sees the modification and holds the file open
        XCTAssertEqual(unlink(url("tmp/scratch").path), 0)
        try handle.close()
        settle()
        let changes = watcher.finish().changes.map { "\($0.kind.rawValue) \($0.path) \($0.bytesWritten)" }
        XCTAssertEqual(changes, ["created tmp/scratch 5000", "deleted tmp/scratch 0"])
    }

    /// Two saves in place queued before the watcher reads either: the first close reads the
    /// second's content, so the second finds no block changed. Both are writes; a close after
    /// only reopening the file (no data written) is none.
    func testTwoSavesInPlaceReadInOneBatchAreTwoWrites() throws {
        let path = "Documents/settings.json"
        try Data(repeating: 0, count: 140).write(to: url(path))
        let watcher = try SandboxFileWatcher.start(root: root).get()
        func save(_ byte: UInt8) throws {
            let handle = try FileHandle(forWritingTo: url(path))
            try handle.write(contentsOf: Data(repeating: byte, count: 140))
            try handle.close()
        }
        try watcher.holdingEvents {
            try save(1)
            try save(2)
        }
        settle()
        let reopened = try FileHandle(forWritingTo: url(path))
        try reopened.synchronize()
        try reopened.close()
        settle()
        let log = watcher.finish()
        let changes = log.changes.map { "\($0.kind.rawValue) \($0.bytesWritten) \($0.readWithEarlierClose == true)" }
        XCTAssertEqual(changes, ["in-place 140 false", "in-place 0 true"], "the first close read both saves: 140 bytes of one changed block")
        XCTAssertEqual(KernelFileActivity(log).writes.count, 2)
    }
}
