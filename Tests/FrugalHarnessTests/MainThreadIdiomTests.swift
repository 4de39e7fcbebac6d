import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// The Swift that iOS apps are written in, under `Application.main` in real runs: every
/// main-thread idiom runs, on the main queue and the main actor, and its time is one handler on
/// the main thread (Tests/IdiomFixtures holds the apps).
///
/// What the runs ask of the machine (XCTestCase+Machine.swift): the idioms' blocks sleep to an
/// absolute deadline and their lateness is bounded by the thread's own run-queue delay, which a
/// neighbour's work adds to and the bound allows for, so the idioms' run is light, as are the
/// directories' and the lifecycle's (paths and order only); the notification model's is gated
/// (its thumbnails and edits are inputs; the warning reads its own footprint).
final class MainThreadIdiomTests: XCTestCase {
    /// The idioms `IdiomApp` runs, by input kind (its `idioms` list).
    static let idioms = ["main.async", "main.asyncAfter", "main.sync-from-background", "operation-queue.main",
                         "runloop.perform", "timer.scheduled", "runloop.add-timer", "dispatch-source.main",
                         "urlsession.delegate-queue-main", "task.main-actor", "task.from-delegate", "main-actor.run",
                         "task.sleep", "async-stream", "notification.queue-main"]

    static func fixture(_ app: String) throws -> RunPlan.Target {
        let tests = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var directory = URL(fileURLWithPath: tests).deletingLastPathComponent()
        // swift test runs the .xctest bundle's binary from .build/<config>/ (or a directory inside it).
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("frugal-idiom-fixtures").path
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return .app(AppTarget(name: app, executable: candidate))
            }
            directory.deleteLastPathComponent()
        }
        XCTFail("frugal-idiom-fixtures is not built beside the tests")
        throw HarnessError.file(path: "frugal-idiom-fixtures", operation: "find")
    }

    static func marks(_ record: RunRecord, named name: String) -> [(time: UInt64, detail: String)] {
        record.events.compactMap { event in
            if case .mark(let mark) = event.body, mark.name == name { return (event.time, mark.detail ?? "") }
            return nil
        }
    }

    func testEveryIdiomRunsOnTheMainThreadAndItsBlockIsOneMeteredHandler() throws {
        var steps: [ScenarioStep] = [.launch, .wait(seconds: 0.3)]
        // 0.9 s each: the idiom's 50 ms delay (timers, asyncAfter, Task.sleep) and its 300 ms block,
        // with room for a loaded machine.
        for idiom in Self.idioms { steps += [.input(kind: idiom), .wait(seconds: 0.9)] }
        steps += [.input(kind: "never-runs"), .terminate]
        let scenario = Scenario(name: "idioms", summary: "test", steps: steps)
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: try Self.fixture("idioms"), scenario: scenario).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let handlers = record.events.compactMap { event -> HandlerRecord? in
            if case .handler(let handler) = event.body { return handler }
            return nil
        }
        let report = ReportBuilder.runReport(record)
        let marks = Self.marks(record, named: "idiom")
        for idiom in Self.idioms {
            let ran = marks.filter { $0.detail == idiom }
            XCTAssertEqual(ran.count, 1, "\(idiom) ran \(ran.count) times")
            guard let mark = ran.first else { continue }
            // The mark is written at the end of the idiom's block, inside the handler that ran it.
            guard let handler = handlers.first(where: { $0.start <= mark.time && mark.time <= $0.end }) else {
                XCTFail("\(idiom): no main-thread handler holds its block")
                continue
            }
            let milliseconds = Double(handler.end - handler.start) / 1e6
            // The block sleeps to an absolute deadline: never early, and late only by scheduling.
            // Time the thread spent runnable but waiting for a CPU (schedstat's run-queue delay)
            // is the machine's load, not the app's (tens of ms on a busy test machine); most of
            // it falls before the deadline and lengthens nothing, so it bounds the lateness only.
            let runQueue = Double(handler.runQueueNanoseconds ?? 0) / 1e6
            XCTAssertGreaterThanOrEqual(milliseconds, 299, "\(idiom) ran in \(handler.name)")
            XCTAssertLessThanOrEqual(milliseconds, 300 + runQueue + 15, "\(idiom) ran in \(handler.name) (\(runQueue) ms on the run queue)")
            let span = report.timeline.handlers.first { $0.name == handler.name && abs($0.durationMs - milliseconds) < 0.01 }
            XCTAssertNotNil(span, "\(idiom): \(handler.name) is on the report's main-thread lane")
            print("IDIOM \(idiom): \(handler.name) \(String(format: "%.1f", milliseconds)) ms (\(String(format: "%.1f", runQueue)) ms on the run queue)")
        }
        // Each mark is on the report's timeline too.
        XCTAssertEqual(report.timeline.marks?.filter { $0.name == "idiom" }.count, Self.idioms.count)
        // Queued on the main queue during willTerminate: it never ran, and the run says so.
        XCTAssertFalse(marks.contains { $0.detail == "never-runs" })
        let unrun = Self.marks(record, named: "work-never-ran")
        XCTAssertTrue(unrun.contains { $0.detail.hasPrefix("main-queue") }, "\(unrun)")
    }

    func testAFrugalKitAppsTemporaryCacheAndDocumentDirectoriesAreInsideTheRunsSandbox() throws {
        let scenario = Scenario(name: "directories", summary: "test", steps: [.launch, .input(kind: "directories"), .terminate])
        let runner = try ScenarioRunnerTests.runner { $0.keepSandboxes = true }
        let record = try runner.run(RunPlan(target: try Self.fixture("idioms"), scenario: scenario).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let root = URL(fileURLWithPath: try XCTUnwrap(record.sandboxPath)).resolvingSymlinksInPath().path
        defer { Sandbox.removeKept(URL(fileURLWithPath: root)) }
        let directories = Dictionary(uniqueKeysWithValues: Self.marks(record, named: "directory").map { mark in
            let parts = mark.detail.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts[0], URL(fileURLWithPath: parts[1]).resolvingSymlinksInPath().path)
        })
        XCTAssertEqual(directories.count, 5, "\(directories)")
        for (kind, path) in directories {
            XCTAssertTrue(path.hasPrefix(root), "\(kind) is \(path), outside the sandbox \(root)")
        }
        XCTAssertEqual(directories["caches"], directories["sandbox-caches"], "FileManager's caches are Sandbox.current.caches")
    }

    func testTheLifecycleIsPostedWithUIKitsNamesInUIKitsOrderRightAfterEachDelegateMethod() throws {
        // Only the order is read, and each step waits for the app to have handled it (its ack)
        // before the next is sent: no wait between them changes what the app was told when.
        let scenario = Scenario(name: "lifecycle", summary: "test", steps: [
            .launch, .interrupt(seconds: 0.3), .memoryWarning(level: .warning),
            .notify(name: "significant-time-change"), .home, .foreground, .terminate,
        ])
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: try Self.fixture("lifecycle-observer"), scenario: scenario).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let seen = Self.marks(record, named: "lifecycle").map(\.detail)
        let expected = [
            "delegate didFinishLaunching", "notification UIApplicationDidFinishLaunchingNotification",
            "delegate didBecomeActive", "notification UIApplicationDidBecomeActiveNotification",
            "delegate willResignActive", "notification UIApplicationWillResignActiveNotification",
            "delegate didBecomeActive", "notification UIApplicationDidBecomeActiveNotification",
            // The memory warning: observers first (caches evict), then the delegate.
            "notification UIApplicationDidReceiveMemoryWarningNotification:warning", "delegate didReceiveMemoryWarning warning",
            "delegate didReceiveNotification significant-time-change", "notification UIApplicationSignificantTimeChangeNotification",
            "delegate willResignActive", "notification UIApplicationWillResignActiveNotification",
            "delegate didEnterBackground", "notification UIApplicationDidEnterBackgroundNotification",
            "delegate willEnterForeground", "notification UIApplicationWillEnterForegroundNotification",
            "delegate didBecomeActive", "notification UIApplicationDidBecomeActiveNotification",
            "delegate willTerminate", "notification UIApplicationWillTerminateNotification",
        ]
        XCTAssertEqual(seen, expected)
    }

    func testAModelThatObservesOnlyNotificationsSavesInTheBackgroundAndFreesItsCacheOnAWarning() throws {
        // The warning's 1.5 s: its footprint is sampled at the delivery and 1 s later. The save is
        // read from what the app held on entering the background (home ends with it suspended)
        // and what the relaunched app restored in its launch: no wait after either measures
        // anything here (save-state's 1 s suspended and 0.5 s after the relaunch are 1.5 s).
        let scenario = Scenario(name: "notification-model", summary: "test", steps: [
            .launch, .input(kind: "thumbnails"), .wait(seconds: 0.5),
            .input(kind: "edit"), .input(kind: "edit"), .input(kind: "edit"),
            .memoryWarning(level: .warning), .wait(seconds: 1.5),
            .home, .kill, .relaunch, .terminate,
        ])
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: try Self.fixture("notification-model"), scenario: scenario).demanding(.gated("its thumbnails and edits are inputs; judged on its own footprint and saves")))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let report = ReportBuilder.runReport(record)
        let save = try XCTUnwrap(report.audits["lifecycle.save-state"])
        XCTAssertEqual(save.numericValue, 0, save.displayValue)
        XCTAssertTrue(save.evidence.contains { $0.description.contains("had 3 values") }, "\(save.evidence)")
        let warnings = try XCTUnwrap(report.audits["memory.respond-to-warnings"])
        // It held 32 MiB of thumbnails and gave nearly all back within the second.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(warnings.score, warnings.displayValue), 0.9, warnings.displayValue)
        print("MODEL save-state: \(save.displayValue); respond-to-warnings: \(warnings.displayValue)")
    }
}
