import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// Foundation on Linux made to behave as iOS's does where an app's verdicts depend on it, in real
/// runs of apps written as iOS apps are (Tests/IdiomFixtures): `UserDefaults` kept without
/// `synchronize()`, `Bundle.main` holding the installed resources, and the cookie store that
/// `URLSession` rewrites being the platform's writes, not the app's (docs/PORTING.md). Each
/// checks what was kept, read or written, never when: its runs are light.
final class FoundationOnLinuxRunTests: XCTestCase {
    func testStateKeptInUserDefaultsSurvivesAKillWhileSuspendedAndATerminate() throws {
        // swift-corelibs-foundation writes UserDefaults only in synchronize(), which iOS apps do
        // not call: FrugalKit writes it before the app may be suspended and as it terminates.
        // Only what was restored and what the sandbox holds at the end are read: light. The
        // background task ends 0.1 s after didEnterBackground; the 1 s before the kill leaves a
        // loaded machine ten times that.
        let scenario = Scenario(name: "defaults", summary: "test", steps: [
            .launch, .input(kind: "edit"), .input(kind: "edit"), .home, .wait(seconds: 1), .kill, .relaunch, .terminate,
        ])
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: try MainThreadIdiomTests.fixture("defaults-state"), scenario: scenario).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let save = try XCTUnwrap(ReportBuilder.runReport(record).audits["lifecycle.save-state"])
        XCTAssertEqual(save.numericValue, 0, save.displayValue)
        XCTAssertTrue(save.evidence.contains { $0.description.contains("had 2 values") }, "\(save.evidence)")
        // The relaunched app found what willResignActive set and what the background task set
        // after didEnterBackground had returned (written when the last task ended).
        XCTAssertEqual(MainThreadIdiomTests.marks(record, named: "restored").map(\.detail), ["edits=0 synced=false", "edits=2 synced=true"])
        // What willTerminate set: the 4 KiB note is in the preferences file the app left.
        let preferences = record.sandboxFiles?.first { $0.path.hasSuffix("frugal-idiom-fixtures.plist") }
        XCTAssertGreaterThan(try XCTUnwrap(preferences, "\(record.sandboxFiles?.map(\.path) ?? [])").bytes, 4096)
    }

    func testBundleMainIsTheSandboxsBundleAndFindsTheResourcesInstalledThere() throws {
        // Which file was read, and whether before the first input: light.
        let tiles = BundleResource(path: "data/tiles.bin", bytes: 2 << 20, content: .pattern, seed: 5)
        let scenario = Scenario(name: "bundle", summary: "test", steps: [.launch, .wait(seconds: 0.2), .input(kind: "open"), .wait(seconds: 0.2), .terminate])
        let plan = RunPlan(target: try MainThreadIdiomTests.fixture("bundle-reader"), scenario: scenario, repetition: 1, bundleResources: [tiles])
        let record = try ScenarioRunnerTests.runner().run(plan.demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let sandbox = URL(fileURLWithPath: try XCTUnwrap(record.sandboxPath)).resolvingSymlinksInPath()
        let bundle = try XCTUnwrap(MainThreadIdiomTests.marks(record, named: "bundle").first?.detail)
        XCTAssertEqual(URL(fileURLWithPath: bundle).resolvingSymlinksInPath().path, sandbox.appendingPathComponent(SandboxLayout.bundle).path)
        XCTAssertEqual(MainThreadIdiomTests.marks(record, named: "read").map(\.detail), [String(2 << 20)])
        XCTAssertTrue(MainThreadIdiomTests.marks(record, named: "bundle-main-elsewhere").isEmpty)
        // The harness saw the read: 2 MiB copied rather than mapped, none of it before the input.
        let report = ReportBuilder.runReport(record)
        XCTAssertEqual(report.audits["memory.map-large-resources"]?.numericValue, Double(2 << 20), report.audits["memory.map-large-resources"]?.displayValue ?? "")
        XCTAssertEqual(report.audits["memory.lazy-resources"]?.numericValue, 0, report.audits["memory.lazy-resources"]?.displayValue ?? "")
    }

    func testFoundationsCookieStoreRewritesAreThePlatformsNotTheAppsWrites() throws {
        // What the app and the platform wrote, not when: light.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-cookie-har-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let har = directory.appendingPathComponent("feed.har")
        let entry: [String: Any] = [
            "startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
            "request": ["method": "GET", "url": "https://api.example.test/v1/feed", "httpVersion": "HTTP/1.1", "headers": []],
            "response": ["status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                         "headers": [["name": "Content-Type", "value": "application/json"],
                                     ["name": "Set-Cookie", "value": "AWSALB=abc123; Expires=Wed, 01 Jan 2031 00:00:00 GMT; Path=/"]],
                         "content": ["size": 13, "mimeType": "application/json", "text": #"{"items":[1]}"#]],
            "timings": ["send": 0, "wait": 1, "receive": 1],
        ]
        try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "creator": ["name": "test", "version": "1"], "entries": [entry]]])
            .write(to: har)
        var steps: [ScenarioStep] = [.launch]
        for _ in 0..<4 { steps += [.input(kind: "refresh"), .wait(seconds: 0.4)] }
        let scenario = Scenario(name: "cookies", summary: "test", steps: steps + [.terminate])
        let runner = try ScenarioRunnerTests.runner { $0.server = ServerSettings(har: har.path) }
        let record = try runner.run(RunPlan(target: try MainThreadIdiomTests.fixture("cookie-feed"), scenario: scenario, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertEqual(MainThreadIdiomTests.marks(record, named: "done").map(\.detail), Array(repeating: "13", count: 4))
        // Foundation rewrote its cookie file for the responses: the platform's writes, seen.
        let kernel = KernelFileActivity(try XCTUnwrap(record.fileChanges))
        XCTAssertGreaterThanOrEqual(kernel.platformWrites.count, 2, "\(kernel.platformWrites.map(\.path))")
        XCTAssertTrue(kernel.platformWrites.allSatisfy { $0.path.hasSuffix("/.cookies.shared") })
        XCTAssertTrue(kernel.writes.isEmpty, "\(kernel.writes.map(\.path))")
        let audit = try XCTUnwrap(ReportBuilder.runReport(record).audits["disk.avoid-frequent-writes"])
        XCTAssertEqual(audit.scoreDisplayMode, .notApplicable, audit.displayValue)
        XCTAssertTrue(audit.explanation?.contains("Foundation's cookie store") ?? false, audit.explanation ?? "")
    }
}
