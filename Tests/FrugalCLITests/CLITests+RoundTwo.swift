import Foundation
import XCTest

/// Issue 24, round two, through the command line: one name per `--out` (a link with a trailing
/// `/` was swapped away and took a lock of its own), `--history` checked before the run, error
/// lines that name the input and the cause in this tool's words, and `merge` of different suites.
final class CLIRoundTwoTests: XCTestCase {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-cli-r2-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// `--out link/` (a link to a directory, with a trailing `/`): the set goes into the target
    /// and the link stays a link. It was swapped away (RENAME_EXCHANGE takes a link as well as a
    /// directory) and replaced by a directory.
    func testAnOutLinkWithATrailingSlashIsFollowedAndKept() throws {
        let directory = try temporaryDirectory()
        let real = directory.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
        let link = directory.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real")
        let result = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", link + "/", "--", "true"])
        XCTAssertEqual(result.status, 0, result.stderr)
        var info = stat()
        XCTAssertEqual(lstat(link, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the link is still a link")
        XCTAssertTrue(FileManager.default.fileExists(atPath: real.appendingPathComponent("report.json").path), "the set is in the target")
    }

    /// A `--history` the store cannot write (a file of procfs, a folder that cannot be made, a
    /// directory that takes no new file) is refused before the run, in one line naming it: it was
    /// found only after the whole suite (exit 3, the run not recorded).
    func testAHistoryThatCannotBeWrittenIsRefusedBeforeTheRun() throws {
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("out").path
        for history in ["/proc/version", "/proc/frugal-no-such/history.sqlite", "/proc/self/history.sqlite"] {
            let started = Date()
            let result = try CLITests.frugal(["run", "--quiet", "--history", history, "--out", out, "--", "sleep", "20"])
            XCTAssertEqual(result.status, 1, "\(history): \(result.stderr)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 15, "refused before the 20 s command ran")
            XCTAssertTrue(result.stderr.hasPrefix("frugal: --history \(history): "), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/report.json"), "nothing ran")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/frugal-no-such"))
    }

    /// Bad inputs and unwritable outputs: exit 1 and one line naming the input and its cause,
    /// never Foundation's sentence ("The operation could not be completed", "Error Domain=…",
    /// "The given data was not valid JSON").
    func testBadInputsGiveOneLineInThisToolsWords() throws {
        let directory = try temporaryDirectory()
        let set = directory.appendingPathComponent("set").path
        XCTAssertEqual(try CLITests.frugal(["run", "--quiet", "--no-history", "--out", set, "--", "true"]).status, 0)
        let report = set + "/report.json"
        let garbage = directory.appendingPathComponent("garbage.json").path
        try Data([0xff, 0xfe, 0x20, 0x7b]).write(to: URL(fileURLWithPath: garbage))
        let missing = directory.appendingPathComponent("missing.json").path
        let fifo = directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let cases: [(arguments: [String], names: String, cause: String)] = [
            (["report", missing, "--markdown", directory.appendingPathComponent("m.md").path], missing, "No such file or directory"),
            (["compare", missing, report], missing, "No such file or directory"),
            (["verdicts", garbage], garbage, "not valid JSON (invalid value around character 0)"),
            (["report", garbage, "--markdown", directory.appendingPathComponent("m.md").path], garbage, "not valid JSON"),
            (["report", report, "--markdown", "/proc/frugal-no-such.md"], "/proc/frugal-no-such.md", "No such file or directory"),
            (["report", report, "--trace", report], report, "not a directory"),
            (["report", report, "--trace", "/proc/frugal-no-such"], "/proc/frugal-no-such", "No such file or directory"),
            (["report", report, "--history", garbage, "--html", directory.appendingPathComponent("h.html").path], garbage, "not a database SQLite can read"),
            (["history", "--db", garbage], garbage, "not a database SQLite can read"),
            (["compare", report, report, "--calibration", fifo], fifo, "a FIFO"),
            (["compare", report, report, "--calibration", garbage], garbage, "not valid JSON"),
            (["run", "--quiet", "--no-history", "--out", directory.appendingPathComponent("o").path, "--har", garbage, "--", "true"], garbage, "not valid JSON"),
            (["run", "--quiet", "--no-history", "--out", directory.appendingPathComponent("o").path, "--har", fifo, "--", "true"], fifo, "a FIFO"),
        ]
        for (arguments, names, cause) in cases {
            let result = try CLITests.frugal(arguments)
            let line = arguments.joined(separator: " ")
            XCTAssertEqual(result.status, 1, "\(line): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(names), "names the input: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(cause), "says the cause (\(cause)): \(result.stderr)")
            for foundation in ["could not be completed", "Error Domain", "given data was not valid", "NSCocoaErrorDomain", "SQLite error"] {
                XCTAssertFalse(result.stderr.contains(foundation), "\(line): \(result.stderr)")
            }
        }
    }

    /// Two reports that are no shards and ran other commands: refused naming both, merged with a
    /// warning when asked.
    func testMergingReportsOfDifferentSuitesIsRefusedUnlessAsked() throws {
        let directory = try temporaryDirectory()
        let one = directory.appendingPathComponent("one").path, two = directory.appendingPathComponent("two").path
        XCTAssertEqual(try CLITests.frugal(["run", "--quiet", "--no-history", "--out", one, "--", "true"]).status, 0)
        XCTAssertEqual(try CLITests.frugal(["run", "--quiet", "--no-history", "--out", two, "--", "sh", "-c", "exit 0"]).status, 0)
        let merged = directory.appendingPathComponent("merged").path
        let refused = try CLITests.frugal(["merge", one + "/report.json", two + "/report.json", "--out", merged])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\(one)/report.json and \(two)/report.json are reports of different suites"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: merged + "/report.json"))
        let asked = try CLITests.frugal(["merge", one + "/report.json", two + "/report.json", "--out", merged, "--allow-different-suites"])
        XCTAssertEqual(asked.status, 0, asked.stderr)
        XCTAssertTrue(asked.stderr.contains("warning: \(one)/report.json and \(two)/report.json are reports of different suites"), asked.stderr)
        let same = try CLITests.frugal(["merge", one + "/report.json", one + "/report.json", "--out", merged])
        XCTAssertEqual(same.status, 0, "one suite twice pools: \(same.stderr)")
    }
}
