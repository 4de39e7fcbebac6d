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
            XCTAssertEqual(entries, ["evidence.json", "report.html", "report.json", "summary.md", "traces"], "run \(attempt): no staging left")
        }
    }

    /// `--out` naming a bind mount of a folder of the same file system (same device as its
    /// parent, its own mount id): it was taken for a plain folder, and the swap at the end failed
    /// with EBUSY (exit 3, no report) after the whole run (issue 24, fresh probe). Needs root.
    func testAnOutOnABindMountGetsItsReport() throws {
        let directory = try temporaryDirectory()
        let source = directory.appendingPathComponent("source"), mountPoint = directory.appendingPathComponent("bound")
        for folder in [source, mountPoint] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) }
        guard getuid() == 0, mount(source.path, mountPoint.path, nil, UInt(MS_BIND), nil) == 0 else {
            throw XCTSkip("a bind mount needs root (CAP_SYS_ADMIN): \(String(cString: strerror(errno)))")
        }
        defer { umount2(mountPoint.path, Int32(MNT_DETACH)) }
        for attempt in 1...2 {
            let result = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", mountPoint.path, "--", "true"])
            XCTAssertEqual(result.status, 0, "run \(attempt): \(result.stderr)")
            let entries = try FileManager.default.contentsOfDirectory(atPath: source.path).sorted()
            XCTAssertEqual(entries, ["evidence.json", "report.html", "report.json", "summary.md", "traces"], "run \(attempt): no staging left")
        }
    }

    /// Round three of the probe: a small mount point passed the free-space check by its parent's
    /// space, and failed with exit 3 after the run. Needs root to mount a tmpfs.
    func testASmallMountPointIsRefusedBeforeTheRun() throws {
        let directory = try temporaryDirectory()
        let mountPoint = directory.appendingPathComponent("tiny")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: false)
        guard getuid() == 0, mount("frugal-test", mountPoint.path, "tmpfs", 0, "size=40k") == 0 else {
            throw XCTSkip("mounting a tmpfs needs root (CAP_SYS_ADMIN): \(String(cString: strerror(errno)))")
        }
        defer { umount2(mountPoint.path, Int32(MNT_DETACH)) }
        for arguments in [["run", "--quiet", "--no-history", "--out", mountPoint.path, "--", "true"],
                          ["merge", try report(in: directory), "--out", mountPoint.path]] {
            let result = try CLITests.frugal(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments[0]): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("MiB free on the file system of \(mountPoint.path)"), result.stderr)
        }
    }

    /// Names the file system takes get their companions (staging directory, temporary file,
    /// lock): a 250-byte `--out` and a 255-byte `--html` were refused because the hidden names
    /// made beside them were longer. A name it does not take is refused before anything is made
    /// (a refused `--out` once left its whole parent chain behind).
    func testLongButValidNamesAreWrittenAndTooLongOnesLeaveNothing() throws {
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("a/b/" + String(repeating: "d", count: 250)).path
        let run = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out, "--", "true"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/report.json"))
        let html = directory.appendingPathComponent(String(repeating: "h", count: 250) + ".html").path
        let render = try CLITests.frugal(["report", out + "/report.json", "--html", html])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: html))
        let tooLong = directory.appendingPathComponent("x/y/" + String(repeating: "e", count: 300)).path
        let refused = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", tooLong, "--", "true"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("longer than a file system takes"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("x").path), "no directory left by the refusal")
    }

    /// Round three of the probe: the old set, swapped out into the staging path, was removed with
    /// a recursive delete that crossed a bind mount inside it and emptied the mounted folder.
    func testReplacingASetLeavesAMountInsideTheOldOneAndItsFiles() throws {
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("out")
        XCTAssertEqual(try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out.path, "--", "true"]).status, 0)
        let victim = directory.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victim.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: victim.appendingPathComponent("sub/g"))
        let mountPoint = out.appendingPathComponent("report.html")
        try FileManager.default.removeItem(at: mountPoint)
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: false)
        guard getuid() == 0, mount(victim.path, mountPoint.path, nil, UInt(MS_BIND), nil) == 0 else {
            throw XCTSkip("bind mounting needs root (CAP_SYS_ADMIN): \(String(cString: strerror(errno)))")
        }
        // Wherever the swap leaves the mount, it is detached at the end.
        defer {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
                umount2(directory.appendingPathComponent(entry).appendingPathComponent("report.html").path, Int32(MNT_DETACH))
            }
        }
        _ = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out.path, "--", "true"])
        XCTAssertEqual(try String(contentsOf: victim.appendingPathComponent("sub/g"), encoding: .utf8), "precious", "the mounted folder's files are kept")
    }

    /// `--out` naming a symbolic link: followed once, so the set lands in the target and the
    /// link stays a link (it was swapped away and replaced by a directory); a link to nothing is
    /// refused before the run.
    func testAnOutThatIsASymbolicLinkWritesIntoItsTarget() throws {
        let directory = try temporaryDirectory()
        let real = directory.appendingPathComponent("real")
        let latest = directory.appendingPathComponent("latest").path
        XCTAssertEqual(try CLITests.frugal(["run", "--quiet", "--no-history", "--out", real.path, "--", "true"]).status, 0)
        try FileManager.default.createSymbolicLink(atPath: latest, withDestinationPath: "real")
        let before = try Data(contentsOf: real.appendingPathComponent("report.json"))
        let again = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", latest, "--", "sh", "-c", "exit 0"])
        XCTAssertEqual(again.status, 0, again.stderr)
        var info = stat()
        XCTAssertEqual(lstat(latest, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the link is still a link")
        XCTAssertNotEqual(try Data(contentsOf: real.appendingPathComponent("report.json")), before, "the new set is in the target")
        let dangling = directory.appendingPathComponent("dangling").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere")
        let refused = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", dangling, "--", "true"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("a symbolic link to nothing"), refused.stderr)
        XCTAssertEqual(lstat(dangling, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the dangling link is left as it was")
    }

    /// `--history` is checked before the run like any output (a block device once got an SQLite
    /// header over its first pages, after the whole run), and reading a history writes nothing.
    func testAHistoryThatIsNotAFrugalHistoryIsRefusedBeforeTheRun() throws {
        let directory = try temporaryDirectory()
        let fifo = directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let notes = directory.appendingPathComponent("notes.txt")
        let text = String(repeating: "not a database\n", count: 100)
        try Data(text.utf8).write(to: notes)
        var cases: [(path: String, says: String)] = [(fifo, "a FIFO"), (directory.path, "a directory"), (notes.path, "not a database")]
        let device = directory.appendingPathComponent("null").path
        if getuid() == 0, mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 { cases.append((device, "a character device")) }
        for (path, says) in cases {
            let started = Date()
            // The command takes 5 s: the refusal must come first.
            let result = try CLITests.frugal(["run", "--quiet", "--history", path, "--out", directory.appendingPathComponent("o").path, "--", "sleep", "5"])
            XCTAssertEqual(result.status, 1, "\(path): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--history") && result.stderr.contains(says), result.stderr)
            XCTAssertLessThan(Date().timeIntervalSince(started), 4, "refused before the run")
        }
        XCTAssertEqual(try String(contentsOf: notes, encoding: .utf8), text, "the file is left as it was")
        XCTAssertFalse(FileManager.default.fileExists(atPath: notes.path + ".lock"), "nothing left beside it")
        // Reading: `frugal report --history` on an empty file neither creates tables nor a lock.
        let empty = directory.appendingPathComponent("empty.sqlite")
        try Data().write(to: empty)
        _ = try CLITests.frugal(["report", try report(in: directory), "--history", empty.path, "--html", directory.appendingPathComponent("r.html").path])
        XCTAssertEqual(try Data(contentsOf: empty).count, 0, "a read writes nothing")
    }

    /// `frugal record --to` is an output like the others: refused before the run when it is not
    /// a regular file or a new path (a device was replaced by a file, a directory silently not
    /// written while "recorded" was printed).
    func testRecordRefusesAToThatIsNotARegularFile() throws {
        let directory = try temporaryDirectory()
        let fifo = directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let folder = directory.appendingPathComponent("folder").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (path, kind) in [(fifo, "a FIFO"), (folder, "a directory")] {
            let result = try CLITests.frugal(["record", "--upstream", "http://127.0.0.1:9", "--to", path, "--no-history",
                                              "--out", directory.appendingPathComponent("o").path, "--", "true"])
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("--to") && result.stderr.contains(kind), result.stderr)
        }
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
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

    /// Standard output on a full device: `frugal rules --json > /dev/full` exited 0 with its
    /// output lost (a fresh probe of issue 24). Now exit 3 and one line; a closed standard
    /// output is still not an error (item 14).
    func testAFailedWriteToStandardOutputIsNotSuccess() throws {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { throw XCTSkip("no /dev/full here") }
        for arguments in [["rules", "--json"], ["list"]] {
            let process = Process()
            process.executableURL = CLITests.binary
            process.arguments = arguments
            let err = Pipe()
            process.standardError = err
            process.standardOutput = full
            try process.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 3, "\(arguments): \(stderr)")
            XCTAssertTrue(stderr.contains("cannot write standard output: No space left on device"), stderr)
        }
        let closed = try CLITests.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" rules --json >&-", CLITests.binary.path])
        XCTAssertEqual(closed.status, 0, "a closed standard output: \(closed.stderr)")
    }
}
