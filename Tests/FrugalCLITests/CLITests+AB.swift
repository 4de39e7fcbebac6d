import Foundation
import XCTest

/// `frugal ab` and `frugal bisect` as a user runs them, on black-box programs that need no build:
/// shell scripts whose one deterministic counter, their write calls (`disk.writeSyscalls`, from
/// the kernel's `/proc/<pid>/io` `syscw`), differs between builds. Counted exactly, so 5 runs a
/// side decide and the tests stay short. (Not `fsync`s: `disk.fsyncs` read 0 for a script's one
/// `sync FILE` in 1 of 5 runs under load here, and a counter that varies is no exact count.)
final class ABCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-ab-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A script that appends to a file of its sandbox `count` times (the shell's `echo` is one
    /// write call).
    static func program(writes count: Int) -> String {
        "#!/bin/sh\nf=\"${TMPDIR:-/tmp}/ab.$$\"\ni=0\nwhile [ $i -lt \(count) ]; do echo x >> \"$f\"; i=$((i + 1)); done\nrm -f \"$f\"\n"
    }

    func write(_ text: String, to name: String, executable: Bool = true) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        return url
    }

    func testABCatchesADeterministicCounterExactlyAndExports() throws {
        let old = try write(Self.program(writes: 1), to: "old.sh")
        let new = try write(Self.program(writes: 6), to: "new.sh")
        let out = directory.appendingPathComponent("ab").path
        let bmf = directory.appendingPathComponent("bmf.json").path
        let result = try CLITests.frugal(["ab", "--repeat", "5", "--max-repeat", "5", "--quiet", "--out", out, "--bmf", bmf,
                                          "--base-executable", old.path, "--head-executable", new.path])
        XCTAssertEqual(result.status, 2, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("REGRESSED metric disk.writeSyscalls"), result.stdout)
        XCTAssertTrue(result.stdout.contains("exact count: 1 → 6") && result.stdout.contains("[gate: exact count]"), result.stdout)
        XCTAssertTrue(result.stderr.contains("disk.writeSyscalls (") && result.stderr.contains("exact count 1 → 6"), result.stderr)
        for file in ["base.json", "head.json", "summary.md"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(out)/\(file)"), file)
        }
        // ABBA: the base's runs are 1st, 4th, 5th, 8th, 9th; both sides have 5.
        let head = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/head.json"))) as? [String: Any]
        XCTAssertEqual((head?["runs"] as? [Any])?.count, 5)
        let exported = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bmf))) as? [String: [String: [String: Double]]]
        XCTAssertEqual(exported?.values.first?["disk.writeSyscalls"]?["value"], 6)
    }

    func testACalibrationFromAnotherHostIsRefusedInOneLine() throws {
        let calibration = """
        {"schemaVersion": 1, "generatedAt": "2026-01-01T00:00:00Z", "subject": "A/A", "entries": [],
         "fingerprint": {"cpuModel": "Some Other CPU", "cores": 64, "kernel": "4.19", "toolchain": "Swift version 5.9",
                         "cgroupVersion": "v2", "stealPercent": 0}}
        """
        let file = try write(calibration, to: "calibration.json", executable: false)
        let base = try write("{}", to: "base.json", executable: false)
        let result = try CLITests.frugal(["compare", base.path, base.path, "--calibration", file.path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("measured on another host") && result.stderr.contains("refused for gating"), result.stderr)
    }

    func testWithACalibrationABaselineFromAnotherMachineIsRefusedInOneLine() throws {
        let run = try CLITests.frugal(["run", "--quiet", "--no-history", "--repeat", "5", "--out", directory.appendingPathComponent("r").path, "--", "true"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let calibration = directory.appendingPathComponent("calibration.json").path
        let calibrate = try CLITests.frugal(["calibrate", "--repeat", "5", "--quiet", "--out", calibration, "--", "true"])
        XCTAssertEqual(calibrate.status, 0, calibrate.stderr)
        XCTAssertTrue(calibrate.stdout.contains("wrote \(calibration)"), calibrate.stdout)
        // The same report, said to come from another machine.
        let report = directory.appendingPathComponent("r/report.json")
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        var environment = try XCTUnwrap(object["environment"] as? [String: Any])
        environment["hostname"] = "another-runner"
        environment["cores"] = 64
        object["environment"] = environment
        let other = directory.appendingPathComponent("other.json")
        try JSONSerialization.data(withJSONObject: object).write(to: other)
        let refused = try CLITests.frugal(["compare", other.path, report.path, "--calibration", calibration])
        XCTAssertEqual(refused.status, 1, refused.stdout + refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("refused for gating"), refused.stderr)
        // Without the calibration it is compared, with the warning it always had.
        let warned = try CLITests.frugal(["compare", other.path, report.path])
        XCTAssertNotEqual(warned.status, 1, warned.stderr)
        XCTAssertTrue(warned.stderr.contains("another machine"), warned.stderr)
    }

    /// A history of 16 commits; commit `badAt` (1-based) raises the writes from 1 to 6.
    func makeHistory(badAt: Int) throws -> (repository: URL, commits: [String]) {
        let repository = directory.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        func git(_ arguments: [String]) throws -> String {
            let result = try CLITests.run(URL(fileURLWithPath: "/usr/bin/env"), ["git", "-C", repository.path,
                "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"] + arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try git(["init", "-q"])
        var commits: [String] = []
        for index in 1...16 {
            let script = repository.appendingPathComponent("tool.sh")
            try (Self.program(writes: index >= badAt ? 6 : 1) + "# revision \(index)\n").write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            _ = try git(["add", "tool.sh"])
            _ = try git(["commit", "-q", "-m", "revision \(index)"])
            commits.append(try git(["rev-parse", "HEAD"]))
        }
        return (repository, commits)
    }

    func testBisectFindsTheFirstBadCommitInFiveBuildsAndResumesAfterAnInterrupt() throws {
        let (repository, commits) = try makeHistory(badAt: 11)
        let builds = directory.appendingPathComponent("builds.log")
        let state = directory.appendingPathComponent("bisect.json")
        let arguments = ["bisect", commits[0], commits[15], "--metric", "disk.writeSyscalls", "--repo", repository.path,
                         "--repeat", "5", "--max-repeat", "5", "--quiet", "--state", state.path,
                         "--build-command", "git rev-parse HEAD >> '\(builds.path)'", "--", "tool.sh"]
        // The first time, interrupted (SIGINT) once two steps are known.
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let twoSteps = CLITests.eventually(timeout: 300) {
            guard let data = try? Data(contentsOf: state),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return !process.isRunning }
            return ((object["verdicts"] as? [String: String])?.count ?? 0) >= 2 || !process.isRunning
        }
        XCTAssertTrue(twoSteps)
        let interrupted = process.isRunning
        if interrupted { kill(process.processIdentifier, SIGINT) }
        process.waitUntilExit()
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any]
        let known = (saved?["verdicts"] as? [String: String]) ?? [:]
        XCTAssertFalse(known.isEmpty, "no step was known before the interrupt")
        if interrupted { XCTAssertEqual(process.terminationStatus, 130) }
        // Again: it resumes, and names revision 11.
        let result = try CLITests.frugal(arguments)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        if interrupted { XCTAssertTrue(result.stderr.contains("resuming from"), result.stderr) }
        XCTAssertTrue(result.stdout.contains("first bad commit: \(commits[10]) revision 11"), result.stdout)
        // Candidates built (GOOD, the reference, aside): at most ⌈log₂ 16⌉ + 1 = 5, each once.
        let built = try String(contentsOf: builds, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(Set(built).count, built.count, "a revision was built twice: \(built)")
        let candidates = built.filter { $0 != commits[0] }
        XCTAssertLessThanOrEqual(candidates.count, 5, "\(candidates)")
    }
}
