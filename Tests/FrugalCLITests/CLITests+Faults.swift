import Foundation
import XCTest

/// The issue-13 reproductions as a user meets them: bad numbers and places refused at once
/// (exit 1, one line), an existing report never replaced by a run that measured nothing, and
/// SIGINT ending the suite with every finished run kept (exit 130).
final class CLIFaultTests: XCTestCase {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-cli-faults-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testOutOfRangeOptionsExitOneWithOneLine() throws {
        for arguments in [["--timeout", "inf"], ["--timeout", "1e300"], ["--timeout", "1e10"], ["--timeout", "nan"],
                          ["--repeat", "999999999999"], ["--jobs", "100000"]] {
            let result = try CLITests.frugal(["run", "--no-history"] + arguments + ["--", "true"])
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }

    /// SIGKILL and SIGSTOP were refused by name but accepted by number (9, 19).
    func testAMemoryWarningSignalThatCannotBeCaughtIsRefusedByNumberToo() throws {
        for signal in ["9", "19", "KILL", "SIGSTOP"] {
            let result = try CLITests.frugal(["run", "--no-history", "--memory-warning-signal", signal, "--", "true"])
            XCTAssertEqual(result.status, 1, "\(signal): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }

    /// A FIFO or a directory given as a report was "permission denied" or "error 256".
    func testAReportThatIsNotARegularFileIsNamedForWhatItIs() throws {
        let directory = try temporaryDirectory()
        let fifo = directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        for (path, kind) in [(fifo, "a FIFO"), (directory.path, "a directory")] {
            for arguments in [["report", path, "--markdown", directory.appendingPathComponent("m.md").path], ["compare", path, path], ["merge", path, "--out", directory.appendingPathComponent("m").path]] {
                let result = try CLITests.frugal(arguments)
                XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("it is \(kind), not a report file"), result.stderr)
            }
        }
    }

    func testAMissingCommandExitsOneAndKeepsTheReportThere() throws {
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("out").path
        let first = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out, "--", "true"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))
        let missing = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out, "--", "frugal-no-such-command"])
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("command not found"), missing.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/report.json")), before, "the report already there is kept")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["out"], "nothing temporary left")
    }

    /// A command that names a directory (`.`, `""`, a directory on PATH) passed `access(X_OK)`,
    /// "crashed" with 126, exited 0 and replaced the report already in --out.
    func testACommandThatIsADirectoryIsNotFoundAndKeepsTheReport() throws {
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("out").path
        XCTAssertEqual(try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out, "--", "true"]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))
        for command in [".", "", directory.path] {
            let result = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out, "--", command])
            XCTAssertEqual(result.status, 1, "'\(command)': \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("not found"), result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/report.json")), before, "the report already there is kept")
    }

    func testAnOutThatCannotBeWrittenFailsBeforeRunning() throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("a-file")
        try Data().write(to: file)
        let started = Date()
        // The workload takes 10 s; the check must come first.
        let result = try CLITests.frugal(["run", "--no-history", "--workload", "news.coalesced", "--out", file.path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("not a directory"), result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 8, "refused before the run")
    }

    func testAConfigAliasBombIsRefusedInTime() throws {
        let directory = try temporaryDirectory()
        var text = "a0: &a0 [x, y]\n"
        for level in 1...9 { text += "a\(level): &a\(level) [*a\(level - 1), *a\(level - 1)]\n" }
        text += "? *a9\n: boom\n"
        let config = directory.appendingPathComponent("bomb.yml")
        try Data(text.utf8).write(to: config)
        let started = Date()
        let result = try CLITests.frugal(["run", "--no-history", "--config", config.path, "--out", directory.path + "/o", "--", "true"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        // Generous for a loaded machine: before the limit this took minutes.
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    /// The first run ends at once; the second says it has started (a marker file) and sleeps
    /// 60 s: the SIGINT is sent when the marker appears, so it falls in the second run.
    func testSIGINTKeepsFinishedRunsAndExits130() throws {
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("out")
        let marker = directory.appendingPathComponent("second-started").path
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["run", "--no-history", "--repeat", "2", "--jobs", "1", "--out", out.path, "--", "/bin/sh", "-c",
                             "[ -e \(directory.path)/second ] && { touch \(marker); sleep 60; }; touch \(directory.path)/second"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        XCTAssertTrue(CLITests.eventually { FileManager.default.fileExists(atPath: marker) }, "the second run never started")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let outcomes = (report["runs"] as? [[String: Any]] ?? []).compactMap { $0["outcome"] as? String }
        XCTAssertEqual(outcomes, ["completed", "interrupted"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("summary.md").path), "a complete set")
        XCTAssertFalse((try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path))
            .contains { $0.hasPrefix("frugal-sandbox-") && $0.contains("-\(process.processIdentifier)-") }, "no sandbox left")
    }

    /// Issue 24, item 5: a SIGINT that came while the report set was being written exited 0,
    /// so a script waiting on the status never heard that the user asked to stop. To land the
    /// signal inside the write every time, strace delays each rename(2) by 3 s (the set is
    /// staged, then renamed into place); the signal is sent once the staging directory exists.
    func testSIGINTWhileTheReportIsWrittenExits130WithTheWholeReport() throws {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("strace is not installed (scripts/setup.sh --ci installs it): it delays the report's renames so the signal lands inside the write")
        }
        let probe = try CLITests.run(URL(fileURLWithPath: strace), ["-qq", "-o", "/dev/null", "/bin/true"])
        guard probe.status == 0 else { throw XCTSkip("strace cannot trace here (ptrace refused: \(probe.stderr.prefix(200)))") }
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("out")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-f", "-qq", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
                             "-e", "inject=rename,renameat,renameat2:delay_enter=3s",
                             CLITests.binary.path, "run", "--no-history", "--out", out.path, "--", "true"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let staging: () -> Bool = {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).contains { $0.contains("frugal-staging") }
        }
        // Before the run, the check of `--out` makes and removes a staging directory of its own
        // at once (ReportDirectory.checkWritable): a signal sent on seeing that one reached
        // frugal before its handlers and killed it (status 2, SIGINT's number; once in six runs
        // of the test lanes, at nice 10). The write's staging lives 3 s per delayed rename: seen
        // twice, 0.3 s apart, it is that one.
        let stagingHeld: () -> Bool = {
            guard staging() else { return false }
            usleep(300_000)
            return staging()
        }
        XCTAssertTrue(CLITests.eventually(stagingHeld), "the report set was never staged")
        // The first rename into the staging directory now waits 3 s: the signal lands in the write.
        // strace with -o blocks fatal signals and forwards none, so frugal (its child) gets it.
        let children = try String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children", encoding: .utf8)
        let frugal = try XCTUnwrap(children.split(separator: " ").first.flatMap { pid_t($0) }, "strace has no child")
        XCTAssertEqual(kill(frugal, SIGINT), 0)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, stderr)
        XCTAssertTrue(stderr.contains("while the report was written"), stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        XCTAssertEqual((report["runs"] as? [[String: Any]] ?? []).compactMap { $0["outcome"] as? String }, ["completed"], "the whole report, its run kept")
        XCTAssertFalse(staging(), "no staging directory left")
    }

    /// `\xff\xfe` used to reach the program as U+FFFD twice.
    func testArgumentsReachTheProgramByteForByte() throws {
        let directory = try temporaryDirectory()
        let got = directory.appendingPathComponent("got").path
        var argv: [[UInt8]] = [Array(CLITests.binary.path.utf8)]
        argv += ["run", "--quiet", "--no-history", "--out", directory.path + "/out", "--", "/bin/sh", "-c", "printf %s \"$1\" > \(got)", "sh"].map { Array($0.utf8) }
        argv.append([0xFF, 0xFE, 0x41])
        // Process takes Strings; posix_spawn takes the bytes as they are.
        let pointers = argv.map { bytes -> UnsafeMutablePointer<CChar>? in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer { pointers.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        XCTAssertEqual(posix_spawn(&pid, CLITests.binary.path, nil, nil, pointers, environ), 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: got))), [0xFF, 0xFE, 0x41])
    }

    /// Two runs into one --out: the second is refused at once instead of replacing the first's.
    /// The second starts once the first holds the lock (its pid is in the lock file), and the
    /// first's command ends when the test says so (a file outside the report's directory).
    func testASecondRunIntoTheSameOutIsRefused() throws {
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("out").path
        let go = try temporaryDirectory().appendingPathComponent("go").path
        let first = Process()
        first.executableURL = CLITests.binary
        first.arguments = ["run", "--quiet", "--no-history", "--out", out, "--", "/bin/sh", "-c", "while [ ! -e \(go) ]; do sleep 0.05; done"]
        try first.run()
        let lock = directory.appendingPathComponent(".out.frugal-lock").path
        XCTAssertTrue(CLITests.eventually { !((try? String(contentsOfFile: lock, encoding: .utf8)) ?? "").isEmpty }, "the first run never took the lock")
        let second = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out, "--", "true"])
        // The refused run leaves the holder's lock file alone, so a third is refused too (the
        // refused run once deleted it, and the third got in beside the first).
        XCTAssertTrue(FileManager.default.fileExists(atPath: lock), "the refused run removed the first run's lock file")
        let third = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out, "--", "true"])
        XCTAssertEqual(third.status, 1, third.stderr)
        XCTAssertTrue(FileManager.default.createFile(atPath: go, contents: nil), "cannot tell the first run to end")
        first.waitUntilExit()
        XCTAssertEqual(second.status, 1, second.stderr)
        XCTAssertTrue(second.stderr.contains("another frugal run"), second.stderr)
        XCTAssertEqual(first.terminationStatus, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["out"], "no lock or staging left")
    }
}
