import XCTest
@testable import frugal

/// The commit read from a checkout's files equals `git rev-parse HEAD` on the same checkout: this
/// package's own (a linked worktree here, or a plain clone), and a fresh repository whose branch
/// lives only in `packed-refs`, or whose HEAD is detached.
final class GitHeadTests: XCTestCase {
    static func git(_ arguments: [String], in directory: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("git \(arguments.joined(separator: " ")) failed (no git?)") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testThisCheckoutsCommitIsGits() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let expected = try Self.git(["rev-parse", "HEAD"], in: root)
        XCTAssertEqual(GitHead.commit(in: root + "/Sources", environment: [:]), expected, "from a subdirectory, as frugal runs")
    }

    func testPackedRefsAndADetachedHead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-githead-\(getpid())").path
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try Self.git(["init", "-q", "-b", "main"], in: directory)
        _ = try Self.git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"], in: directory)
        _ = try Self.git(["pack-refs", "--all"], in: directory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/.git/refs/heads/main"), "the branch is only packed")
        let packed = try Self.git(["rev-parse", "HEAD"], in: directory)
        XCTAssertEqual(GitHead.commit(in: directory, environment: [:]), packed)
        _ = try Self.git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "two"], in: directory)
        _ = try Self.git(["checkout", "-q", "--detach", "HEAD~1"], in: directory)
        XCTAssertEqual(GitHead.commit(in: directory, environment: [:]), packed, "a detached HEAD holds the hash")
        XCTAssertNil(GitHead.commit(in: directory, environment: ["GIT_DIR": "/elsewhere"]), "GIT_DIR is git's to follow")
        XCTAssertNil(GitHead.commit(in: "/", environment: [:]), "no checkout")
    }
}
