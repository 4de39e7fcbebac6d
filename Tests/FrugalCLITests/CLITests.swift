import Foundation
import XCTest

/// The `frugal` executable as a user runs it: exit codes, one-line errors, files written.
final class CLITests: XCTestCase {
    static var binary: URL {
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
        return executable.deletingLastPathComponent().appendingPathComponent("frugal")
    }

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    func frugal(_ arguments: [String]) throws -> Result { try Self.frugal(arguments) }

    /// Polls `condition` until it holds or `timeout` s of real time pass; returns whether it held.
    /// For what another process does (a file it writes): the poll ends as soon as it has, and the
    /// generous timeout only bounds a test that would otherwise hang.
    static func eventually(timeout: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    static func frugal(_ arguments: [String]) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            XCTFail("frugal is not built at \(binary.path)")
            return Result(status: -1, stdout: "", stderr: "")
        }
        return try run(binary, arguments)
    }

    /// Runs `executable` to its end and returns its status and both outputs: the tests' one way
    /// to run a process and read what it wrote.
    ///
    /// Both pipes are drained at once. Reading one to its end before the other would leave a
    /// child that fills the other pipe (64 KiB) blocked on its write, and the test waiting forever.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                    adding environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Written by the reading thread only, read after `group.wait()`, which orders the two.
        final class Collected: @unchecked Sendable { var data = Data() }
        let stderr = Collected()
        let group = DispatchGroup()
        let errors = err.fileHandleForReading
        DispatchQueue.global().async(group: group) { stderr.data = errors.readDataToEndOfFile() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr.data, as: UTF8.self))
    }

    func testUnknownWorkloadExitsOneWithOneLineNamingItAndTheKnownOnes() throws {
        let result = try frugal(["run", "--workload", "nosuch"])
        XCTAssertEqual(result.status, 1)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("'nosuch'"))
        for known in ["news.polling", "news.coalesced", "launch.blocking", "launch.deferred", "idle"] {
            XCTAssertTrue(result.stderr.contains(known), "lists \(known)")
        }
    }

    func testUsageErrorsExitOne() throws {
        XCTAssertEqual(try frugal(["run", "--repeat", "0"]).status, 1)
        XCTAssertEqual(try frugal(["run", "--no-such-flag"]).status, 1)
        XCTAssertEqual(try frugal(["run", "--scenario", "nope"]).status, 1)
        XCTAssertEqual(try frugal(["report", "/no/such/report.json", "--html", "/tmp/x.html"]).status, 1)
    }

    func testHelpExitsZero() throws {
        let result = try frugal(["run", "--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("--workload"))
    }

    func testDoctorReportsPAPIEventsWithReasons() throws {
        let result = try frugal(["doctor", "--json"])
        XCTAssertEqual(result.status, 0)
        let survey = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let papi = try XCTUnwrap(survey["papi"] as? [String: Any])
        let events = try XCTUnwrap(papi["events"] as? [[String: Any]])
        let names = events.compactMap { $0["name"] as? String }
        XCTAssertTrue(names.contains("perf::CONTEXT-SWITCHES"))
        XCTAssertTrue(names.contains("PAPI_TOT_INS"))
        for event in events where (event["available"] as? Bool) == false {
            XCTAssertNotNil(event["reason"] as? String, "an unavailable event says why: \(event)")
        }
    }

    func testRulesJSONListsTheCatalogue() throws {
        let result = try frugal(["rules", "--json"])
        XCTAssertEqual(result.status, 0)
        let rules = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        XCTAssertTrue(ids.contains("power.avoid-polling"))
        XCTAssertTrue(ids.contains("lifecycle.resume-fast"))
        XCTAssertEqual(rules.count, 33, "every rule of docs/RULES.md")
        // Each measured rule says what it decides from and when it does not apply (issue 30).
        for rule in rules where (rule["measured"] as? Bool) == true {
            XCTAssertNotNil(rule["evidence"] as? String, "\(rule["id"] ?? "?") has no evidence")
            XCTAssertNotNil(rule["notApplicableWhen"] as? String, "\(rule["id"] ?? "?") does not say when it does not apply")
        }
    }

    func testBlackBoxRunWritesTheReportAndReportRendersIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-cli-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try frugal(["run", "--no-history", "--out", directory.path, "--", "sh", "-c", "sleep 0.2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("[1/1]"), "progress on standard error")
        let json = directory.appendingPathComponent("report.json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: json.path))
        let html = directory.appendingPathComponent("again.html")
        XCTAssertEqual(try frugal(["report", json.path, "--html", html.path]).status, 0)
        XCTAssertTrue(try String(contentsOf: html, encoding: .utf8).contains("<svg"))
    }

    /// `frugal verdicts` on a report without the built-in suite: every pair is missing, so it is
    /// not clean (exit 2) and says which workloads it looked for; a bad path is one line, exit 1.
    func testVerdictsNamesWhatIsMissingAndFailsWithoutTheSuite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-verdicts-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        XCTAssertEqual(try frugal(["run", "--no-history", "--quiet", "--out", directory.path, "--", "true"]).status, 0)
        let verdicts = try frugal(["verdicts", directory.appendingPathComponent("report.json").path])
        XCTAssertEqual(verdicts.status, 2, verdicts.stderr)
        XCTAssertTrue(verdicts.stdout.contains("not in the report: news.coalesced"), verdicts.stdout)
        XCTAssertTrue(verdicts.stdout.contains("false alarms (good workload below 0.90 on an audit): 0"), verdicts.stdout)
        let missing = try frugal(["verdicts", "/nonexistent/report.json"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
    }
}
