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

    /// The changes the watcher recorded of `name` (in Library/, made before it starts) while
    /// `write` wrote it through one handle, held open 0.3 s after `write` returns and then closed.
    func changes(of name: String, initially contents: Data?, _ write: (FileHandle) throws -> Void) throws -> [FileChange] {
        let path = root.appendingPathComponent("Library/\(name)")
        FileManager.default.createFile(atPath: path.path, contents: contents)
        let watcher = try SandboxFileWatcher.start(root: root).get()
        let handle = try FileHandle(forWritingTo: path)
        try write(handle)
        usleep(300_000)
        try handle.close()
        usleep(300_000)
        return watcher.finish().changes.filter { $0.path == "Library/\(name)" }
    }

    func testALogHeldOpenAndAppendedThreeTimesIsOneChangeOfThreeBursts() throws {
        let changes = try changes(of: "edits.log", initially: Data("start\n".utf8)) { handle in
            for edit in 0..<3 {
                if edit > 0 { usleep(600_000) }
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("edit \(edit)\n".utf8))
                try handle.synchronize()
            }
        }
        XCTAssertEqual(changes.count, 1, "\(changes)")
        let bursts = try XCTUnwrap(changes.first?.heldOpenBursts, "three writes 0.6 s apart to a file held open: bursts recorded")
        XCTAssertTrue((2...3).contains(bursts.count), "\(bursts.count) bursts")
        XCTAssertEqual(bursts, bursts.sorted())
        // Counted as a write each, each small.
        let kernel = KernelFileActivity(FileChangeLog(changes: changes))
        XCTAssertEqual(kernel.smallWrites.count, bursts.count)
    }

    func testOneWriteInManyCallsHeldOpenBeforeItsCloseIsOneBurst() throws {
        let changes = try changes(of: "export.csv", initially: nil) { handle in
            for row in 0..<200 { try handle.write(contentsOf: Data("row \(row),\(row * 7)\n".utf8)) }
            try handle.synchronize()
            usleep(300_000)  // held 0.6 s in all before its close
        }
        XCTAssertEqual(changes.count, 1, "\(changes)")
        XCTAssertNil(changes.first?.heldOpenBursts)
    }
}
