import Foundation
import XCTest
import FrugalProbe

/// A sandbox is removed without leaving its file system: a bind mount inside it (of a folder
/// holding the host's files) is left, and what it shows is kept (issue 24: removing a sandbox
/// once deleted files on the host through one).
final class FileTreeRemovalTests: XCTestCase {
    func testATreeIsRemovedWholeWithoutFollowingLinks() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-removal-\(getpid())-a")
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-removal-\(getpid())-outside")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("a/b/c"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("keep.txt"))
        try Data("x".utf8).write(to: root.appendingPathComponent("a/b/c/file"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("a/link"), withDestinationURL: outside)
        XCTAssertEqual(FileTreeRemoval.remove(root.path), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside.appendingPathComponent("keep.txt").path), "a link is removed, not followed")
    }

    func testABindMountInsideIsLeftWithItsFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-removal-\(getpid())-b")
        let host = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-removal-\(getpid())-host")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Documents/mounted"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: host, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: host)
            try? FileManager.default.removeItem(at: root)
        }
        try Data("host".utf8).write(to: host.appendingPathComponent("precious.txt"))
        let mountPoint = root.appendingPathComponent("Documents/mounted").path
        // A tmpfs, not a bind mount: a bind mount of a folder on the same file system keeps its
        // device number, while a tmpfs always has its own; the host's files are then shown through
        // a second, bind mount of the tmpfs's folder.
        guard getuid() == 0, mount("frugal-test", host.path, "tmpfs", 0, "size=1m") == 0 else {
            throw XCTSkip("mounting needs root (CAP_SYS_ADMIN): \(String(cString: strerror(errno)))")
        }
        defer { umount2(host.path, Int32(MNT_DETACH)) }
        try Data("host".utf8).write(to: host.appendingPathComponent("precious.txt"))
        guard mount(host.path, mountPoint, nil, UInt(MS_BIND), nil) == 0 else {
            throw XCTSkip("bind mount failed: \(String(cString: strerror(errno)))")
        }
        defer { umount2(mountPoint, Int32(MNT_DETACH)) }
        try Data("x".utf8).write(to: root.appendingPathComponent("Documents/own.txt"))
        let left = FileTreeRemoval.remove(root.path)
        XCTAssertEqual(left, [mountPoint], "the mount is what is left (its parents stay, not empty)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: host.appendingPathComponent("precious.txt").path), "the host's file is kept")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("Documents/own.txt").path), "the sandbox's own file is gone")
    }
}
