import Foundation
import XCTest
@testable import FrugalProbe

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

    /// A workload running as root marked a file and a folder of its sandbox immutable
    /// (`chattr +i`): the sandbox was left behind, silently, run after run.
    func testImmutableAndAppendOnlyFilesAndFoldersAreRemoved() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-removal-\(getpid())-immutable")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("locked"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("locked/file"))
        try Data("y".utf8).write(to: root.appendingPathComponent("log"))
        defer {
            _ = Self.chattr("-i", root.appendingPathComponent("locked/file").path)
            _ = Self.chattr("-i", root.appendingPathComponent("locked").path)
            _ = Self.chattr("-a", root.appendingPathComponent("log").path)
            try? FileManager.default.removeItem(at: root)
        }
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"),
              Self.chattr("+i", root.appendingPathComponent("locked/file").path),
              Self.chattr("+i", root.appendingPathComponent("locked").path),
              Self.chattr("+a", root.appendingPathComponent("log").path) else {
            throw XCTSkip("marking a file immutable needs root (CAP_LINUX_IMMUTABLE), /usr/bin/chattr and a file system with the attribute")
        }
        XCTAssertNotEqual(unlink(root.appendingPathComponent("locked/file").path), 0, "the attribute holds")
        XCTAssertEqual(FileTreeRemoval.remove(root.path), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.path))
    }

    static func chattr(_ change: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [change, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
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

    /// Round three of the probe: a bind mount of a folder of the SAME file system has the same
    /// device number, so the device check crossed it and deleted the host's files. The mount id
    /// (statx) or mountinfo tells it apart.
    func testABindMountOfTheSameFileSystemIsLeftWithItsFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-removal-\(getpid())-c")
        let host = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-removal-\(getpid())-samefs")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Documents/m"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: host.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: host)
            try? FileManager.default.removeItem(at: root)
        }
        try Data("host".utf8).write(to: host.appendingPathComponent("precious.txt"))
        try Data("host".utf8).write(to: host.appendingPathComponent("sub/also.txt"))
        let mountPoint = root.appendingPathComponent("Documents/m").path
        guard getuid() == 0, mount(host.path, mountPoint, nil, UInt(MS_BIND), nil) == 0 else {
            throw XCTSkip("bind mounting needs root (CAP_SYS_ADMIN): \(String(cString: strerror(errno)))")
        }
        defer { umount2(mountPoint, Int32(MNT_DETACH)) }
        var mounted = stat(), parent = stat()
        XCTAssertEqual(stat(mountPoint, &mounted), 0)
        XCTAssertEqual(stat(root.path, &parent), 0)
        XCTAssertEqual(mounted.st_dev, parent.st_dev, "the case the device check could not see")
        XCTAssertEqual(FileTreeRemoval.remove(root.path), [mountPoint])
        XCTAssertTrue(FileManager.default.fileExists(atPath: host.appendingPathComponent("precious.txt").path), "the host's file is kept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: host.appendingPathComponent("sub/also.txt").path))
    }

    func testMountinfoPathsAreUnescaped() {
        XCTAssertEqual(FileTreeRemoval.unescape(#"/tmp/a\040b\011c\134d"#), "/tmp/a b\tc\\d")
        XCTAssertEqual(FileTreeRemoval.unescape("/plain"), "/plain")
    }
}
