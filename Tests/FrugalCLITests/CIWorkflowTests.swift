import Foundation
import XCTest
import Yams

/// docs/ci's GitHub Actions and GitLab CI files, checked by running their own commands here: the
/// shard step for each of the 4 shards (side by side, as a matrix does), then the merge step.
/// Kept cheap: four light workloads (they sleep, and `frugal run` runs them side by side and
/// holds the machine only for their launches, here and in the test lanes' shared gate) under
/// the shortest built-in scenario (`startup`: launch, one input, 1 s; what is checked is the
/// workflows' commands, not the workloads' verdicts), one repetition; the comparison step runs
/// against a baseline made from the same runs. Four disk workloads, which run alone, held the
/// tests' machine gate 7.5 s.
final class CIWorkflowTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let workloads: Set<String> = ["idle", "news.coalesced", "timer.pauses-inactive", "server.closes-listener"]
    static let suite = workloads.sorted().map { "--workload \($0)" }.joined(separator: " ") + " --scenario startup"

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-ci-workflow-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func load(_ name: String) throws -> [String: Any] {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("docs/ci/\(name)"), encoding: .utf8)
        return try XCTUnwrap(try Yams.load(yaml: text) as? [String: Any], "\(name) is not a YAML mapping")
    }

    /// Runs `command` with bash in `directory`, as a CI runner would, with `environment` added.
    func shell(_ command: String, environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-euo", "pipefail", "-c", command]
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let log = directory.appendingPathComponent("log-\(UUID().uuidString.prefix(8)).txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: log.path, contents: nil))
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    func runAll(_ commands: [(String, [String: String])]) throws {
        let processes = try commands.map { try shell($0.0, environment: $0.1) }
        for (process, command) in zip(processes, commands) {
            process.waitUntilExit()
            let logs = (try? FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("log-") }) ?? []
            let text = logs.compactMap { try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
            XCTAssertEqual(process.terminationStatus, 0, "\(command.0)\n\(text)")
        }
    }

    /// What both workflows' variables become here.
    var variables: [String: String] {
        ["FRUGAL": CLITests.binary.path, "FRUGAL_SUITE": Self.suite, "FRUGAL_REPEAT": "1"]
    }

    /// After the shards: a baseline from the same runs (merged once without one), so the
    /// workflow's comparison has something to read.
    func makeBaseline(shards pattern: String) throws -> String {
        let reports = try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { $0.hasSuffix("report.json") && $0.hasPrefix(pattern) }.sorted()
        XCTAssertEqual(reports.count, 4, "\(reports)")
        let merged = try CLITests.frugal(["merge"] + reports.map { directory.appendingPathComponent($0).path } + ["--out", directory.appendingPathComponent("pre").path])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        let baseline = directory.appendingPathComponent("baseline.json").path
        let written = try CLITests.frugal(["report", directory.appendingPathComponent("pre/report.json").path, "--baseline-out", baseline])
        XCTAssertEqual(written.status, 0, written.stderr)
        return baseline
    }

    func checkMerged() throws {
        let merged = directory.appendingPathComponent("merged")
        for file in ["report.json", "report.html", "summary.md", "junit.xml"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: merged.appendingPathComponent(file).path), "merged/\(file)")
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: merged.appendingPathComponent("report.json"))) as? [String: Any]
        let workloads = Set(((json?["results"] as? [[String: Any]]) ?? []).compactMap { $0["workload"] as? String })
        XCTAssertEqual(workloads, Self.workloads)
        XCTAssertNotNil(json?["comparison"], "the merge step compared with the baseline")
    }

    func testTheGitHubActionsMatrixRunsHereAsFourShardsAndAMerge() throws {
        let workflow = try load("github-actions.yml")
        let jobs = try XCTUnwrap(workflow["jobs"] as? [String: Any])
        let suite = try XCTUnwrap(jobs["suite"] as? [String: Any])
        let matrix = try XCTUnwrap((suite["strategy"] as? [String: Any])?["matrix"] as? [String: Any])
        let shards = try XCTUnwrap(matrix["shard"] as? [Int])
        XCTAssertEqual(shards, [1, 2, 3, 4])
        // The commands, not the set-up: checkout, setup.sh and the build are this test's own.
        func commands(_ job: [String: Any]) -> [String] {
            ((job["steps"] as? [[String: Any]]) ?? []).compactMap { step in
                guard let run = step["run"] as? String, let name = step["name"] as? String,
                      !["Set up", "Build", "Post summary"].contains(name) else { return nil }
                return run
            }
        }
        let shardCommands = commands(suite)
        XCTAssertEqual(shardCommands.count, 1, "\(shardCommands)")
        try runAll(shards.flatMap { shard in
            shardCommands.map { ($0.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(shard)"), variables) }
        })
        // download-artifact puts each artifact in shards/<name>/.
        for shard in shards {
            let target = directory.appendingPathComponent("shards/shard-\(shard)")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: directory.appendingPathComponent("shard-\(shard)/report.json"), to: target.appendingPathComponent("report.json"))
        }
        let baseline = try makeBaseline(shards: "shards/")
        let mergeCommands = commands(try XCTUnwrap(jobs["merge"] as? [String: Any]))
        XCTAssertEqual(mergeCommands.count, 1, "\(mergeCommands)")
        try runAll(mergeCommands.map { ($0, variables.merging(["FRUGAL_BASELINE": baseline]) { $1 }) })
        try checkMerged()
    }

    func testTheGitLabParallelJobsRunHereAsFourShardsAndAMerge() throws {
        let pipeline = try load("gitlab-ci.yml")
        let suite = try XCTUnwrap(pipeline["frugal-suite"] as? [String: Any])
        XCTAssertEqual(suite["parallel"] as? Int, 4)
        let shardCommands = try XCTUnwrap(suite["script"] as? [String])
        try runAll((1...4).flatMap { index in
            shardCommands.map { ($0, variables.merging(["CI_NODE_INDEX": "\(index)", "CI_NODE_TOTAL": "4"]) { $1 }) }
        })
        let baseline = try makeBaseline(shards: "shard-")
        let report = try XCTUnwrap(pipeline["frugal-report"] as? [String: Any])
        let mergeCommands = try XCTUnwrap(report["script"] as? [String])
        try runAll(mergeCommands.map { ($0, variables.merging(["FRUGAL_BASELINE": baseline]) { $1 }) })
        try checkMerged()
    }
}
