import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// A file held open and written again and again is one close, and so one change, but each
/// burst of writing is recorded (`FileChange.heldOpenBursts`), on a real directory with inotify.
/// Judged on counts with 0.6 s between bursts, more than twice the watcher's 250 ms gap, so a
/// watcher that reads late on a loaded machine can merge at most neighbours: the bounds allow it.
final class SandboxFileWatcherBurstTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-bursts-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Library"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    func testALogHeldOpenAndAppendedThreeTimesIsOneChangeOfThreeBursts() throws {
        let path = root.appendingPathComponent("Library/edits.log")
        FileManager.default.createFile(atPath: path.path, contents: Data("start\n".utf8))
        let watcher = try SandboxFileWatcher.start(root: root).get()
        let handle = try FileHandle(forWritingTo: path)
        for edit in 0..<3 {
            if edit > 0 { usleep(600_000) }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("edit \(edit)\n".utf8))
            try handle.synchronize()
        }
        usleep(300_000)
        try handle.close()
        usleep(300_000)
        let changes = watcher.finish().changes.filter { $0.path == "Library/edits.log" }
        XCTAssertEqual(changes.count, 1, "\(changes)")
        let bursts = try XCTUnwrap(changes.first?.heldOpenBursts, "three writes 0.6 s apart to a file held open: bursts recorded")
        XCTAssertTrue((2...3).contains(bursts.count), "\(bursts.count) bursts")
        XCTAssertEqual(bursts, bursts.sorted())
        // Counted as a write each, each small.
        let kernel = KernelFileActivity(FileChangeLog(changes: changes))
        XCTAssertEqual(kernel.smallWrites.count, bursts.count)
    }

    func testOneWriteInManyCallsHeldOpenBeforeItsCloseIsOneBurst() throws {
        let path = root.appendingPathComponent("Library/export.csv")
        FileManager.default.createFile(atPath: path.path, contents: nil)
        let watcher = try SandboxFileWatcher.start(root: root).get()
        let handle = try FileHandle(forWritingTo: path)
        for row in 0..<200 { try handle.write(contentsOf: Data("row \(row),\(row * 7)\n".utf8)) }
        try handle.synchronize()
        usleep(600_000)
        try handle.close()
        usleep(300_000)
        let changes = watcher.finish().changes.filter { $0.path == "Library/export.csv" }
        XCTAssertEqual(changes.count, 1, "\(changes)")
        XCTAssertNil(changes.first?.heldOpenBursts)
    }
}
