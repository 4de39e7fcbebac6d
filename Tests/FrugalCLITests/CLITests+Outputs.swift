import Foundation
import XCTest

/// Outputs that must not destroy what they would replace (issue 24): a file output is written
/// only over a regular file or a new path, checked before any work; `--out` on a mount point
/// gets its report.
final class CLIOutputPathTests: XCTestCase {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-cli-outputs-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A report to render: one run of `true`.
    func report(in directory: URL) throws -> String {
        let out = directory.appendingPathComponent("set").path
        let result = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out, "--", "true"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return out + "/report.json"
    }

    /// A FIFO, a symbolic link, a directory and (as root) a character device made in the test's
    /// own directory, each named to every file output: refused with one line that says what it
    /// is, and left as it was. A regular file is replaced, a new path created.
    func testFileOutputsRefuseWhatIsNotARegularFile() throws {
        let directory = try temporaryDirectory()
        let input = try report(in: directory)
        let fifo = directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let target = directory.appendingPathComponent("target")
        try Data("keep".utf8).write(to: target)
        let link = directory.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        let folder = directory.appendingPathComponent("folder").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        var refused: [(path: String, kind: String)] = [(fifo, "a FIFO"), (link, "a symbolic link"), (folder, "a directory")]
        let device = directory.appendingPathComponent("null").path
        if getuid() == 0, mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 {
            refused.append((device, "a character device"))
        } else {
            print("note: the character-device case needs root (mknod); checked with the other kinds only")
        }
        for (path, kind) in refused {
            for flag in ["--html", "--markdown", "--junit", "--baseline-out"] {
                let result = try CLITests.frugal(["report", input, flag, path])
                XCTAssertEqual(result.status, 1, "\(flag) \(path): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(kind), result.stderr)
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            }
            let compare = try CLITests.frugal(["compare", input, input, "--out", path])
            XCTAssertEqual(compare.status, 1, compare.stderr)
            XCTAssertTrue(compare.stderr.contains(kind), compare.stderr)
        }
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
        XCTAssertEqual(lstat(link, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the link is still a link")
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "keep", "the link's target is untouched")
        if refused.count == 4 {
            XCTAssertEqual(lstat(device, &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "the device is still a device")
        }
        // A regular file is replaced; a new path is created.
        let html = directory.appendingPathComponent("page.html").path
        XCTAssertEqual(try CLITests.frugal(["report", input, "--html", html, "--markdown", target.path]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: html, encoding: .utf8).contains("<html"))
        XCTAssertNotEqual(try String(contentsOf: target, encoding: .utf8), "keep")
        // A name longer than the file system takes is refused before anything is written.
        let long = directory.appendingPathComponent(String(repeating: "n", count: 300)).path
        let tooLong = try CLITests.frugal(["report", input, "--html", long])
        XCTAssertEqual(tooLong.status, 1, tooLong.stderr)
        XCTAssertTrue(tooLong.stderr.contains("longer than a file system takes"), tooLong.stderr)
    }

    /// A command whose name is 240 characters: the sandbox and cgroup names built from it stay
    /// within NAME_MAX (the run once failed with "File name too long" after it had run).
    func testALongCommandNameRuns() throws {
        let directory = try temporaryDirectory()
        let command = directory.appendingPathComponent(String(repeating: "c", count: 240)).path
        try FileManager.default.createSymbolicLink(atPath: command, withDestinationPath: "/bin/true")
        let result = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", directory.appendingPathComponent("o").path, "--", command])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// `--out` naming a mount point: the set is staged inside it and moved in file by file (it
    /// once failed with exit 3 after the whole suite). Needs root to mount a tmpfs.
    func testAnOutOnAMountPointGetsItsReport() throws {
        let directory = try temporaryDirectory()
        let mountPoint = directory.appendingPathComponent("mounted")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: false)
        guard getuid() == 0, mount("frugal-test", mountPoint.path, "tmpfs", 0, "size=64m") == 0 else {
            throw XCTSkip("mounting a tmpfs needs root (CAP_SYS_ADMIN): \(String(cString: strerror(errno)))")
        }
        defer { umount2(mountPoint.path, Int32(MNT_DETACH)) }
        for attempt in 1...2 {
            let result = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", mountPoint.path, "--", "true"])
            XCTAssertEqual(result.status, 0, "run \(attempt): \(result.stderr)")
            let entries = try FileManager.default.contentsOfDirectory(atPath: mountPoint.path).sorted()
            XCTAssertEqual(entries, ["report.html", "report.json", "summary.md", "traces"], "run \(attempt): no staging left")
        }
    }
}

/// Frugal's own streams (issue 24, item 14): a program's output never lands in `--json-stdout`,
/// and a standard error whose reader has gone does not end the suite.
final class CLIStreamTests: XCTestCase {
    func testAProgramsOutputStaysOutOfTheJSONOnStandardOutput() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-streams-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLITests.frugal(["run", "--quiet", "--no-history", "--json-stdout", "--out", out, "--",
                                          "sh", "-c", "echo program-says-$((40 + 2))"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The printed line is not in the command line, which the report names the workload by.
        XCTAssertFalse(result.stdout.contains("program-says-42"), String(result.stdout.prefix(300)))
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)), "standard output is the report alone")
        XCTAssertTrue(result.stderr.contains("program-says-42"), "the program's output is on standard error: \(result.stderr)")
    }

    /// Standard error is a pipe whose reader closed before frugal wrote a line: the progress
    /// lines fail with EPIPE and are dropped; the run ends as it would have (it was once killed
    /// by SIGPIPE at its first progress line).
    func testAClosedStandardErrorDoesNotEndTheRun() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-closed-stderr-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["run", "--no-history", "--out", out, "--", "sh", "-c", "echo to-a-closed-pipe"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try err.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "not ended by a signal (SIGPIPE is \(SIGPIPE)): \(process.terminationStatus)")
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/report.json"))
    }
}
