import Foundation
import XCTest
@testable import FrugalHarness

/// A harness that died (SIGKILL) leaves its sandboxes; the next one removes them, and only them.
final class HarnessLeftoversTests: XCTestCase {
    /// A pid that is surely gone: a child that has exited and been reaped.
    static func reapedPID() throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    func testSandboxesOfADeadHarnessAreSweptAndLiveOnesKept() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-leftovers-\(getpid())")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let gone = try Self.reapedPID()
        let dead = parent.appendingPathComponent("frugal-sandbox-news.polling-\(gone)-0000ABCD")
        let live = parent.appendingPathComponent("frugal-sandbox-news.polling-\(getppid())-0000ABCD")
        let ours = parent.appendingPathComponent("frugal-sandbox-idle-\(getpid())-0000ABCD")
        for directory in [dead, live, ours] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("Bundle"), withIntermediateDirectories: true)
        }
        // The bundle is read-only, as a real sandbox's is.
        chmod(dead.appendingPathComponent("Bundle").path, 0o555)
        let removed = HarnessLeftovers.sweep(sandboxParent: parent)
        XCTAssertEqual(removed, [dead.path])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live.path), "another harness's sandbox is kept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: ours.path), "this harness's own sandbox is kept")
        HarnessLeftovers.removeOwn(sandboxParent: parent, reportDirectory: nil)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ours.path))
    }

    /// A sandbox kept with `--keep-sandboxes` was removed by the next `frugal run`'s sweep, its
    /// harness being gone (issue 24, fresh probe): marked at the end of its run, it is left.
    func testAKeptSandboxIsLeftByTheNextSweep() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-leftovers-kept-\(getpid())")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let gone = try Self.reapedPID()
        let kept = parent.appendingPathComponent("frugal-sandbox-idle-\(gone)-0000ABCD")
        let died = parent.appendingPathComponent("frugal-sandbox-idle-\(gone)-0000DCBA")
        for directory in [kept, died] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        }
        HarnessLeftovers.markKept(kept.path)
        // A marker the workload made as a link is no marker: the harness's is a regular file.
        try FileManager.default.createSymbolicLink(atPath: died.appendingPathComponent(HarnessLeftovers.keptMarker).path, withDestinationPath: "/etc/hostname")
        HarnessLeftovers.markKept(died.path)
        let removed = HarnessLeftovers.sweep(sandboxParent: parent)
        XCTAssertTrue(FileManager.default.fileExists(atPath: kept.appendingPathComponent("Documents").path), "the kept sandbox is left")
        XCTAssertFalse(removed.contains(kept.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: died.path), "a dead harness's sandbox is still swept")
    }
}
