import Foundation
import XCTest
@testable import FrugalReport

/// One report directory, one lock, whatever name it is given (issue 24, round two): a link with a
/// trailing `/`, `a/../out` through a link, a second mount of a mount point.
final class ReportDirectoryNamesTests: XCTestCase {
    func temporaryDirectory() throws -> URL {
        // Resolved: the temporary directory may itself be reached through a link.
        let base = try OutputPath.canonicalDirectory(FileManager.default.temporaryDirectory.path)
        let url = URL(fileURLWithPath: base).appendingPathComponent("frugal-names-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testAPathIsTheOneTheKernelReaches() throws {
        let root = try temporaryDirectory()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("real/y"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("a").path, withDestinationPath: "real/y")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: "real/y")
        let real = root.appendingPathComponent("real").path
        // `a/..` is real/, not root/: the kernel takes `..` after following the link.
        XCTAssertEqual(try OutputPath.canonicalDirectory(root.path + "/a/../out"), real + "/out")
        XCTAssertEqual(try OutputPath.canonicalDirectory(root.path + "/link/"), real + "/y")
        XCTAssertEqual(try OutputPath.canonicalDirectory(root.path + "/link"), real + "/y")
        XCTAssertEqual(try OutputPath.canonicalDirectory(root.path + "/link/new/deeper"), real + "/y/new/deeper", "what does not exist is kept as written")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("dangling").path, withDestinationPath: "nowhere")
        XCTAssertThrowsError(try OutputPath.canonicalDirectory(root.path + "/dangling/out")) {
            XCTAssertTrue("\($0)".contains("a symbolic link to nothing"), "\($0)")
        }
        try Data().write(to: root.appendingPathComponent("file"))
        XCTAssertThrowsError(try OutputPath.canonicalDirectory(root.path + "/file/out")) {
            XCTAssertTrue("\($0)".contains(String(cString: strerror(ENOTDIR))), "\($0)")
        }
    }

    /// Before, each name took a lock file beside itself: `link/` beside the link, `a/../d`
    /// (taken by name) in the current directory.
    func testASecondNameForOneDirectoryMeetsTheLock() throws {
        let root = try temporaryDirectory()
        let real = root.appendingPathComponent("real/d")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("real/y"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: "real/d")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("a").path, withDestinationPath: "real/y")
        var held: ReportDirectoryLock? = try ReportDirectoryLock(real)
        XCTAssertNotNil(held)
        for other in [root.path + "/link/", root.path + "/a/../d"] {
            XCTAssertThrowsError(try ReportDirectoryLock(URL(fileURLWithPath: other)), other) {
                XCTAssertTrue("\($0)".contains("another frugal run (pid \(getpid()))"), "\($0)")
            }
        }
        held = nil
        XCTAssertNoThrow(withExtendedLifetime(try ReportDirectoryLock(URL(fileURLWithPath: root.path + "/link/"))) {}, "free again once released")
    }

    /// A mount point reached through a second mount of it has another parent: the directory's own
    /// lock meets it. Needs root (mount).
    func testASecondMountOfAMountPointMeetsTheLock() throws {
        guard getuid() == 0 else { throw XCTSkip("bind mounts need root") }
        let root = try temporaryDirectory()
        let source = root.appendingPathComponent("source")
        let first = root.appendingPathComponent("one/out")
        let second = root.appendingPathComponent("two/out")
        for directory in [source, first, second] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        guard mount(source.path, first.path, nil, UInt(MS_BIND), nil) == 0 else { throw XCTSkip("mount --bind refused: \(String(cString: strerror(errno)))") }
        defer { umount2(first.path, Int32(MNT_DETACH)) }
        guard mount(source.path, second.path, nil, UInt(MS_BIND), nil) == 0 else { throw XCTSkip("mount --bind refused: \(String(cString: strerror(errno)))") }
        defer { umount2(second.path, Int32(MNT_DETACH)) }
        let held = try ReportDirectoryLock(first)
        XCTAssertThrowsError(try ReportDirectoryLock(second)) {
            XCTAssertTrue("\($0)".contains("by another name"), "\($0)")
            XCTAssertTrue("\($0)".contains("(pid \(getpid()))"), "the holder is named: \($0)")
        }
        withExtendedLifetime(held) {}
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("two").path), ["out"],
                       "the refused lock left no lock file")
    }
}
