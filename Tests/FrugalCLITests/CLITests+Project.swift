import Foundation
import XCTest

/// `frugal run` with a frugal.yml, and an app executable started by hand.
final class ProjectCLITests: XCTestCase {
    var directory: URL!
    var host: URL { CLITests.binary.deletingLastPathComponent().appendingPathComponent("frugal-workload-host") }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-project-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: directory.appendingPathComponent("Documents/note.txt"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func write(_ yaml: String) throws -> String {
        let path = directory.appendingPathComponent("frugal.yml").path
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An app executable started by hand says in one line that `frugal run` must start it, and exits 1.
    func testAnAppExecutableStartedByHandSaysSoAndExitsOne() throws {
        let result = try CLITests.run(host, [])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("must be started by `frugal run`"), result.stderr)
    }

    /// The apps of frugal.yml run under its scenarios: a user's executable (here the workload host,
    /// which is one) and a program run as a black box.
    func testFrugalYmlAppsRunUnderTheirScenarios() throws {
        let config = try write("""
        apps:
          - name: idle
            executable: \(host.path)
            documents: Documents/
            scenarios: [brief]
          - name: pause
            kind: program
            executable: /bin/sleep
            arguments: ["0.2"]
          - name: blue
            kind: program
            executable: /bin/sh
            arguments: ["-c", "test \\"$COLOUR\\" = blue"]
            environment: {COLOUR: blue}
          - name: red
            kind: program
            executable: /bin/sh
            arguments: ["-c", "test \\"$COLOUR\\" = blue"]
            environment: {COLOUR: red}
        scenarios:
          brief:
            steps: [launch, {input: tap}, {wait: 0.5}, terminate]
        """)
        let out = directory.appendingPathComponent("out").path
        let result = try CLITests.frugal(["run", "--config", config, "--out", out, "--no-history", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try String(contentsOfFile: out + "/report.json", encoding: .utf8)
        XCTAssertTrue(report.contains("\"workload\" : \"idle\""), "the app ran under its frugal.yml name")
        XCTAssertTrue(report.contains("\"scenario\" : \"brief\""), "under frugal.yml's scenario")
        XCTAssertTrue(report.contains("\"workload\" : \"pause\""), "the program ran as a black box, under its name")
        // Two programs of one executable are two workloads, each with its own environment.
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        let runs = try XCTUnwrap(json["runs"] as? [[String: Any]])
        func exitCode(_ name: String) -> Int? {
            (runs.first { $0["workload"] as? String == name }?["exitStatus"] as? [String: Any])?["code"] as? Int
        }
        XCTAssertEqual(exitCode("blue"), 0, "blue saw COLOUR=blue")
        XCTAssertEqual(exitCode("red"), 1, "red saw its own COLOUR")
        let listed = try CLITests.frugal(["list", "--config", config])
        XCTAssertTrue(listed.stdout.contains("brief"), listed.stdout)
        XCTAssertEqual(try CLITests.frugal(["list", "--config", config, "--products"]).stdout, "", "no products to build")
    }

    /// A `product` is taken from `--products-dir` (as the plugin passes it), and frugal.yml is
    /// found in the current directory without `--config`.
    func testProductsComeFromTheProductsDirectoryAndFrugalYmlFromTheCurrentDirectory() throws {
        _ = try write("""
        apps:
          - name: idle
            product: frugal-workload-host
            scenarios: [brief]
        scenarios:
          brief: [launch, {wait: 0.3}, terminate]
        """)
        let run = try CLITests.run(CLITests.binary, ["run", "--products-dir", host.deletingLastPathComponent().path, "--out", "out", "--no-history", "--quiet"],
                                   in: directory)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try String(contentsOf: directory.appendingPathComponent("out/report.json"), encoding: .utf8)
        XCTAssertTrue(report.contains("\"scenario\" : \"brief\""))
        let products = try CLITests.frugal(["list", "--products", "--config", directory.appendingPathComponent("frugal.yml").path])
        XCTAssertEqual(products.stdout, "frugal-workload-host\n")
        // A product missing from the directory is the app's line in frugal.yml.
        let missing = try CLITests.frugal(["run", "--config", directory.appendingPathComponent("frugal.yml").path,
                                           "--products-dir", directory.path, "--no-history", "--quiet"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("frugal.yml:2: app 'idle': product 'frugal-workload-host' is not in"), missing.stderr)
    }

    /// Each malformed case: exit 1, one line `frugal.yml:LINE: problem`, nothing run, nothing written.
    func testAMalformedFrugalYmlExitsOneBeforeAnythingRuns() throws {
        let cases: [(String, Int, String)] = [
            ("scenarios:\n  s:\n    steps: [launch, teleport]\n", 3, "unknown step 'teleport'"),
            ("scenarios:\n  s:\n    steps:\n      - launch\n      - wait: soon\n", 5, "'wait' needs a number"),
            ("apps:\n  - name: a\n    executable: ./missing-binary\n", 3, "does not exist"),
            ("apps:\n  - name: a\n    executable: \(host.path)\n    scenarios: [nowhere]\n", 4, "scenario 'nowhere' names nothing"),
        ]
        for (yaml, line, fragment) in cases {
            let config = try write(yaml)
            let out = directory.appendingPathComponent("out").path
            let result = try CLITests.frugal(["run", "--config", config, "--out", out, "--no-history"])
            XCTAssertEqual(result.status, 1, yaml)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("frugal.yml:\(line): "), result.stderr)
            XCTAssertTrue(result.stderr.contains(fragment), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing ran: \(yaml)")
        }
    }

    /// An app built against another protocol: exit 1 with one line naming both versions, no report of a watchdog.
    func testAnAppOfAnotherProtocolVersionExitsOneWithOneLine() throws {
        let script = directory.appendingPathComponent("old-app")
        let hello = #"{"t":1,"type":"hello","hello":{"protocolVersion":999,"pid":1,"mainThreadID":1,"workload":"old","counters":[]}}"#
        try Data("#!/bin/sh\nprintf '%s\\n' '\(hello)' >&4\nexec sleep 30\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let config = try write("apps:\n  - name: old\n    executable: \(script.path)\n")
        let started = Date()
        let result = try CLITests.frugal(["run", "--config", config, "--out", directory.appendingPathComponent("out").path, "--no-history", "--quiet"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("protocol 999"), result.stderr)
        XCTAssertTrue(result.stderr.contains("rebuild"), result.stderr)
        XCTAssertFalse(result.stderr.contains("watchdog"), result.stderr)
        // Generous for a loaded machine; the launch watchdog alone would take 5 s.
        XCTAssertLessThan(Date().timeIntervalSince(started), 4)
    }
}
