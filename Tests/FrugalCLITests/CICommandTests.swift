import Foundation
import XCTest

/// compare, report --junit/--markdown, --config, history: exit codes and files, as CI uses them.
final class CICommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-ci-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs a black box 5 times into `name`/report.json: a shell that sleeps `sleeps` times, each
    /// sleep a child process it waits for. The count comes from a file so that the command, which
    /// names the workload, is the same in every report.
    func report(_ name: String, sleeps: Int, extra: [String] = []) throws -> CLITests.Result {
        try "\(sleeps)\n".write(toFile: path("sleeps"), atomically: true, encoding: .utf8)
        let script = "for i in $(seq $(cat \(path("sleeps")))); do sleep 0.005; done"
        return try CLITests.frugal(["run", "--quiet", "--repeat", "5", "--history", path("history.sqlite"), "--out", path(name)] + extra + ["--", "sh", "-c", script])
    }

    func testCompareExitsZeroOnTheSameCodeAndTwoOnARegressionNamingIt() throws {
        XCTAssertEqual(try report("base", sleeps: 1).status, 0)
        XCTAssertEqual(try report("same", sleeps: 1).status, 0)
        // Thirty sleeps: each is a process the shell waits for, so dozens more wakeups per run.
        XCTAssertEqual(try report("worse", sleeps: 30).status, 0)
        let cli = CLITests.self
        let same = try cli.frugal(["compare", path("base/report.json"), path("same/report.json")])
        XCTAssertEqual(same.status, 0, same.stdout.replacingOccurrences(of: "\n", with: " ") + same.stderr)
        XCTAssertTrue(same.stdout.contains("no significant regression"), same.stdout)

        let worse = try cli.frugal(["compare", path("base/report.json"), path("worse/report.json"), "--markdown", path("cmp.md")])
        XCTAssertEqual(worse.status, 2, worse.stdout + worse.stderr)
        XCTAssertTrue(worse.stdout.contains("REGRESSED metric cpu.wakeups"), worse.stdout)
        XCTAssertEqual(worse.stderr.split(separator: "\n").count, 1, "one line on standard error: \(worse.stderr)")
        XCTAssertTrue(try String(contentsOfFile: path("cmp.md"), encoding: .utf8).contains("cpu.wakeups"))

        // The same through run --baseline, with the report JSON on standard output.
        let run = try report("again", sleeps: 30, extra: ["--baseline", path("base/report.json"), "--json-stdout"])
        XCTAssertEqual(run.status, 2, run.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let comparison = object?["comparison"] as? [String: Any]
        let names = (comparison?["regressions"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        XCTAssertTrue(names.contains("cpu.wakeups"), "\(names)")

        let history = try cli.frugal(["history", "--db", path("history.sqlite")])
        XCTAssertEqual(history.status, 0, history.stderr)
        XCTAssertTrue(history.stdout.contains("power.avoid-polling"), history.stdout)
    }

    func testTooFewRepetitionsAreSaidNotHidden() throws {
        let cli = CLITests.self
        let one = try cli.frugal(["run", "--quiet", "--no-history", "--out", path("one"), "--", "true"])
        XCTAssertEqual(one.status, 0, one.stderr)
        // One run a side: nothing can be judged, so nothing was compared (exit 1, one line),
        // never "no significant regression (N values compared)".
        let compared = try cli.frugal(["compare", path("one/report.json"), path("one/report.json")])
        XCTAssertEqual(compared.status, 1, compared.stdout + compared.stderr)
        XCTAssertTrue(compared.stderr.contains("too few repetitions"), compared.stderr)
        XCTAssertEqual(compared.stderr.split(separator: "\n").count, 1, compared.stderr)
        XCTAssertFalse(compared.stdout.contains("compared over"), compared.stdout)
    }

    func testReportsSharingNoWorkloadCompareNothingAndExitOne() throws {
        let cli = CLITests.self
        XCTAssertEqual(try cli.frugal(["run", "--quiet", "--no-history", "--out", path("a"), "--", "true"]).status, 0)
        XCTAssertEqual(try cli.frugal(["run", "--quiet", "--no-history", "--out", path("b"), "--", "sh", "-c", "true"]).status, 0)
        let compared = try cli.frugal(["compare", path("a/report.json"), path("b/report.json")])
        XCTAssertEqual(compared.status, 1, compared.stdout + compared.stderr)
        XCTAssertEqual(compared.stderr.split(separator: "\n").count, 1, "one line: \(compared.stderr)")
        XCTAssertTrue(compared.stderr.contains("share no workload"), compared.stderr)
        XCTAssertFalse(compared.stdout.contains("no significant regression"), compared.stdout)
    }

    func testReportWritesJUnitAndMarkdown() throws {
        let cli = CLITests.self
        XCTAssertEqual(try cli.frugal(["run", "--quiet", "--no-history", "--out", path("r"), "--", "true"]).status, 0)
        let result = try cli.frugal(["report", path("r/report.json"), "--junit", path("junit.xml"), "--markdown", path("summary.md")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let junit = try String(contentsOfFile: path("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.hasPrefix("<?xml") && junit.contains("<testcase "), junit)
        XCTAssertTrue(try String(contentsOfFile: path("summary.md"), encoding: .utf8).contains("## Scores"))
    }

    /// `frugal merge` judges the joined results by the project's assertions (--config), as
    /// frugal run does; it once dropped them, and a shard's failing assertion vanished from the
    /// merged report with exit 0. Without --config it says that the shards' verdicts are not
    /// carried over. The program leaves 3 MB in its tmp: disk.clean-tmp's error-level assertion fails.
    func testMergeJudgesTheJoinedReportByTheConfigsAssertions() throws {
        let config = path("frugal.yml")
        try "assert:\n  assertions:\n    disk.clean-tmp: [error, {minScore: 0.9}]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let shard = try CLITests.frugal(["run", "--config", config, "--no-history", "--quiet", "--out", path("shard"),
                                         "--", "sh", "-c", "head -c 3000000 /dev/zero > \"$TMPDIR/left\""])
        XCTAssertEqual(shard.status, 2, shard.stderr)
        let judged = try CLITests.frugal(["merge", path("shard/report.json"), "--config", config, "--out", path("judged")])
        XCTAssertEqual(judged.status, 2, judged.stderr)
        XCTAssertTrue(judged.stderr.contains("error-level assertion failed, first: disk.clean-tmp"), judged.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("judged/report.json")))) as? [String: Any]
        XCTAssertEqual((json?["assertions"] as? [String: Any])?["failed"] as? Bool, true)
        let unjudged = try CLITests.frugal(["merge", path("shard/report.json"), "--out", path("unjudged")])
        XCTAssertEqual(unjudged.status, 0, unjudged.stderr)
        XCTAssertTrue(unjudged.stderr.contains("give --config to judge the joined report"), unjudged.stderr)
    }

    func testABadConfigExitsOneWithTheFileAndLine() throws {
        let config = path("frugal.yml")
        try "assertions:\n  power.avoid-polling: [error, {minScore: 7}]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try CLITests.frugal(["run", "--config", config, "--no-history", "--out", path("x"), "--", "true"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "frugal: \(config):2: 'power.avoid-polling': minScore must be between 0 and 1, not 7.0\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x")), "nothing ran")
    }

    func testAnErrorAssertionExitsTwoAndAnnotates() throws {
        let config = path("frugal.json")
        // A black-box command has no idle phase, so power.avoid-polling has no value: use a category
        // bound that cannot hold instead. The power category of a black box is not scored either, so
        // assert a score on an audit that is scored for every run: none is for a black box — hence
        // the preset `frugal:strict` must pass (nothing to check) and exit 0.
        try #"{"preset": "frugal:strict"}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try CLITests.frugal(["run", "--config", config, "--no-history", "--github-annotations", "--quiet", "--out", path("y"), "--", "true"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.contains("::error"), "nothing was measured that could fail: \(result.stdout)")
    }
}
