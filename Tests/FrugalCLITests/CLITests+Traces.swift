import Foundation
import XCTest

/// Every run's Perfetto trace, read back by an independent reader (scripts/perfetto-check.py:
/// Google's protobuf runtime with Perfetto's published schema), and `--rules apple-limits` on
/// real runs. Timing: the workloads' hangs and warnings are what they did; the checks compare the
/// trace with the report of the same run, so load changes both alike.
final class CLITraceTests: XCTestCase {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-cli-traces-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// The independent reader on run `index` of `report`; skips when Python's perfetto package is missing.
    func check(_ trace: String, report: String, run index: Int) throws -> CLITests.Result {
        let result = try CLITests.run(URL(fileURLWithPath: "/usr/bin/env"),
                                      ["python3", Self.repository.appendingPathComponent("scripts/perfetto-check.py").path, trace,
                                       "--report", report, "--run", String(index)])
        if result.status == 3 || result.status == 127 {
            throw XCTSkip("the independent trace reader needs python3 and its perfetto package (pip install perfetto protobuf; scripts/setup.sh --ci): \(result.stderr)")
        }
        return result
    }

    /// A hang (launch.blocking), a memory warning (atlas.maps) and six requests with their
    /// completion handlers (upload.batched): each run's trace holds one track per thread, the hang
    /// as a slice of its length, the warning as an instant, a flow per request, and counters
    /// whose sums are the report's. `frugal report --trace` draws the same bytes again.
    func testEveryRunHasATraceTheIndependentReaderAgreesWith() throws {
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("out").path
        let result = try CLITests.frugal(["run", "--no-history", "--out", out, "--rules", "apple-limits",
                                          "--workload", "launch.blocking", "--workload", "atlas.maps", "--workload", "upload.batched"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("Perfetto traces in"), result.stderr)
        XCTAssertTrue(result.stdout.contains("launch.blocking · standard · run 1: apple.hangs: exceeded"), result.stdout)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any]
        let runs = try XCTUnwrap(json?["runs"] as? [[String: Any]])
        XCTAssertEqual(runs.count, 3)
        var checked: [String: String] = [:]
        for (index, run) in runs.enumerated() {
            let path = try XCTUnwrap((run["trace"] as? [String: Any])?["path"] as? String, "run \(index) has a trace")
            XCTAssertEqual((run["appleLimits"] as? [[String: Any]])?.count, 6, "run \(index) is judged by the pack")
            let check = try check(out + "/" + path, report: out + "/report.json", run: index)
            XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
            checked[run["workload"] as? String ?? "?"] = check.stdout
        }
        XCTAssertTrue(checked["launch.blocking"]?.contains("ok: hang 'didFinishLaunching'") == true, checked["launch.blocking"] ?? "")
        XCTAssertTrue(checked["atlas.maps"]?.contains("ok: memory warning (warning)") == true, checked["atlas.maps"] ?? "")
        XCTAssertTrue(checked["upload.batched"]?.contains("ok: 6 flows from a request to its completion handler") == true, checked["upload.batched"] ?? "")
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<a href=\"traces/001-"), "report.html links the traces")
        XCTAssertTrue(html.contains("Apple&#39;s enforced limits") || html.contains("Apple's enforced limits") || html.contains("Apple&#x27;s enforced limits"))

        let redrawn = directory.appendingPathComponent("redrawn").path
        let report = try CLITests.frugal(["report", out + "/report.json", "--trace", redrawn, "--trace-run", "upload.batched"])
        XCTAssertEqual(report.status, 0, report.stderr)
        let name = try XCTUnwrap(runs.compactMap { ($0["trace"] as? [String: Any])?["path"] as? String }.first { $0.contains("upload.batched") })
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: redrawn + "/" + (name as NSString).lastPathComponent)),
                       try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)), "report.json draws the same trace again")
        try checkReaudit(out: out, in: directory, report: json)
    }

    /// Gather once, audit many (`frugal reaudit`), on the same runs: their evidence audited again
    /// by the same rules gives the same report.json, byte for byte (rule pack, traces and all);
    /// a score that differs in the report it is listed against is named with both values; a file
    /// that is not evidence is refused in one line naming it.
    func checkReaudit(out: String, in directory: URL, report json: [String: Any]?) throws {
        let again = directory.appendingPathComponent("again").path
        let reaudit = try CLITests.frugal(["reaudit", out + "/evidence.json", "--out", again])
        XCTAssertEqual(reaudit.status, 0, reaudit.stderr)
        XCTAssertTrue(reaudit.stdout.contains("no score moved against \(out)/report.json"), reaudit.stdout)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: again + "/report.json")),
                       try Data(contentsOf: URL(fileURLWithPath: out + "/report.json")), "the re-audit's report.json is the run's")
        XCTAssertTrue(FileManager.default.fileExists(atPath: again + "/evidence.json"), "the new set keeps its evidence")

        // An older report, as if the rules had changed since: its first result's overall score was 0.01.
        var older = try XCTUnwrap(json)
        var results = try XCTUnwrap(older["results"] as? [[String: Any]])
        results[0]["score"] = 0.01
        older["results"] = results
        let olderPath = directory.appendingPathComponent("older.json").path
        try JSONSerialization.data(withJSONObject: older).write(to: URL(fileURLWithPath: olderPath))
        let moved = try CLITests.frugal(["reaudit", out + "/evidence.json", "--out", again, "--against", olderPath])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertTrue(moved.stdout.contains("1 score moved against \(olderPath)"), moved.stdout)
        XCTAssertTrue(moved.stdout.contains("\(results[0]["workload"] as? String ?? "?") · \(results[0]["scenario"] as? String ?? "?")  overall  0.01 → "), moved.stdout)

        let notEvidence = try CLITests.frugal(["reaudit", out + "/report.json", "--out", directory.appendingPathComponent("never").path])
        XCTAssertEqual(notEvidence.status, 1, notEvidence.stderr)
        XCTAssertTrue(notEvidence.stderr.contains("\(out)/report.json") && notEvidence.stderr.contains("not a Frugal evidence file"), notEvidence.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("never").path), "nothing written for bad input")
    }

    /// A program that writes about 1 MB every 3 s: about 333 KB/s, which fills Apple's 1073.74 MB
    /// in under an hour (the issue's 20 MB in 60 s, at a tenth of the length). The rate is what
    /// the kernel counted over the run's wall time, so the bounds are wide.
    func testDiskWritesAreProjectedToADayWithTheTimeToTheLimit() throws {
        let directory = try temporaryDirectory()
        let out = directory.appendingPathComponent("out").path
        let file = directory.appendingPathComponent("w").path
        let script = "for i in 1 2; do head -c 1000000 /dev/urandom > \(file)$i; sync \(file)$i; sleep 3; done"
        let result = try CLITests.frugal(["run", "--no-history", "--no-trace", "--out", out, "--rules", "apple-limits", "--", "sh", "-c", script])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any]
        let run = try XCTUnwrap((json?["runs"] as? [[String: Any]])?.first)
        XCTAssertNotNil(run["trace"].flatMap { ($0 as? [String: Any])?["omitted"] }, "--no-trace says so")
        let disk = try XCTUnwrap((run["appleLimits"] as? [[String: Any]])?.first { $0["id"] as? String == "apple.disk-writes" })
        guard disk["status"] as? String != "unavailable" else { throw XCTSkip("write_bytes is not counted here: \(disk["summary"] ?? "")") }
        XCTAssertEqual(disk["status"] as? String, "would-trip", "\(disk)")
        let projected = try XCTUnwrap(disk["projected"] as? Double)
        XCTAssertGreaterThan(projected, 5e9, "about 2 MB in 6–10 s is well over 5 GB a day")
        let seconds = try XCTUnwrap(disk["secondsToLimit"] as? Double)
        XCTAssertEqual(seconds, 1_073_741_824 / (projected / 86_400), accuracy: 1, "the time to the limit is the limit over the rate")
        XCTAssertTrue((disk["summary"] as? String)?.hasPrefix("would hit the disk writes report after") == true, "\(disk)")
        XCTAssertTrue((disk["source"] as? String)?.contains("developer.apple.com/forums/thread/686854") == true)
        XCTAssertTrue(result.stdout.contains("apple.disk-writes: would hit the disk writes report after"), result.stdout)
    }

    func testAnUnknownRulePackIsRefusedAtOnce() throws {
        let result = try CLITests.frugal(["run", "--rules", "android", "--", "true"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("unknown --rules pack 'android'; known: apple-limits"), result.stderr)
        let rules = try CLITests.frugal(["rules"])
        XCTAssertTrue(rules.stdout.contains("Rule pack 'apple-limits'"), rules.stdout)
        XCTAssertTrue(rules.stdout.contains("apple.disk-writes"))
    }
}
