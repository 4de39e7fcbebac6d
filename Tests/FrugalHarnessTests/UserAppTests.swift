import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// A user's own app executable through the harness: the same entry point and protocol as the
/// built-in workloads (the workload host is such an executable, holding many apps).
final class UserAppTests: XCTestCase {
    func host() throws -> String {
        try XCTUnwrap(WorkloadHostLocator.locate(), "frugal-workload-host is not built beside the tests")
    }

    func testAnAppExecutableRunsWithItsArgumentsEnvironmentAndDocuments() throws {
        let document = BundleResource(path: "inbox/notes.txt", bytes: 5000, content: .pattern, seed: 3)
        let target = AppTarget(name: "idle", executable: try host(), arguments: [], environment: ["NOTES_MODE": "test"])
        let runner = try ScenarioRunnerTests.runner { $0.keepSandboxes = true }
        let record = try runner.run(RunPlan(target: .app(target), scenario: ScenarioRunnerTests.short, documents: [document]))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertEqual(record.workload, "idle")
        let hello = record.events.compactMap { event -> Hello? in
            if case .hello(let hello) = event.body { return hello }
            return nil
        }.first
        // Selected by name among the executable's apps, speaking this harness's protocol.
        XCTAssertEqual(hello?.workload, "idle")
        XCTAssertEqual(hello?.protocolVersion, FrugalProtocol.version)
        let root = URL(fileURLWithPath: try XCTUnwrap(record.sandboxPath))
        defer { Sandbox.removeKept(root) }
        let installed = try Data(contentsOf: root.appendingPathComponent("Documents/inbox/notes.txt"))
        XCTAssertEqual(Array(installed), document.contents(offset: 0, count: document.bytes))
        let permissions = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("Documents/inbox/notes.txt").path)[.posixPermissions] as? Int
        XCTAssertEqual((permissions ?? 0) & 0o200, 0o200, "documents are the app's to change, unlike the bundle")
    }

    func testFileResourcesAreCopiedIntoTheReadOnlyBundle() throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-resource-\(UUID().uuidString.prefix(8)).txt")
        try Data("palette".utf8).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let runner = try ScenarioRunnerTests.runner { $0.keepSandboxes = true }
        let plan = RunPlan(target: .app(AppTarget(name: "idle", executable: try host())), scenario: ScenarioRunnerTests.short,
                           bundleResources: [.file(source.path, as: "colours/palette.txt", bytes: 7)])
        let record = try runner.run(plan)
        let root = URL(fileURLWithPath: try XCTUnwrap(record.sandboxPath))
        defer { Sandbox.removeKept(root) }
        let installed = root.appendingPathComponent("Bundle/colours/palette.txt")
        XCTAssertEqual(try String(contentsOf: installed, encoding: .utf8), "palette")
        // Permissions, not access(2): root may write anything.
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: installed.path)[.posixPermissions] as? Int, 0o444)
    }

    /// An executable holding several apps and asked for one it does not have exits 1 at once
    /// (its one line is on standard error); the run records it, with no watchdog.
    func testAnAppNameTheExecutableDoesNotHoldEndsTheRunAsACrash() throws {
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .app(AppTarget(name: "no-such-app", executable: try host())),
                                                                  scenario: ScenarioRunnerTests.short))
        XCTAssertEqual(record.outcome, .crashed)
        XCTAssertEqual(record.exitStatus?.code, 1)
    }

    /// A fake app whose hello names `version` (nil: no version field), then waits to be killed.
    func fakeApp(helloVersion version: Int?) throws -> URL {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-fake-app-\(UUID().uuidString.prefix(8))")
        let field = version.map { "\"protocolVersion\":\($0)," } ?? ""
        let hello = "{\"t\":1,\"type\":\"hello\",\"hello\":{\(field)\"pid\":1,\"mainThreadID\":1,\"workload\":\"old\",\"counters\":[]}}"
        try Data("#!/bin/sh\nprintf '%s\\n' '\(hello)' >&4\nexec sleep 30\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    /// Another version ends the run as soon as the hello is read, with the line that names both
    /// versions; never a launch-watchdog outcome (that would take 5 s and blame the app).
    func testAHelloOfAnotherVersionEndsTheRunAtOnce() throws {
        for version in [FrugalProtocol.version + 1, nil] {
            let script = try fakeApp(helloVersion: version)
            defer { try? FileManager.default.removeItem(at: script) }
            let runner = try ScenarioRunnerTests.runner()
            let start = MonotonicClock.now()
            XCTAssertThrowsError(try runner.run(RunPlan(target: .app(AppTarget(name: "old", executable: script.path)),
                                                        scenario: ScenarioRunnerTests.short))) { error in
                guard let mismatch = error as? ProtocolMismatch else { return XCTFail("\(error)") }
                XCTAssertEqual(mismatch.appVersion, version ?? 0)
                XCTAssertTrue(mismatch.description.contains("protocol \(version ?? 0)"), mismatch.description)
                XCTAssertTrue(mismatch.description.contains("speaks \(FrugalProtocol.version)"), mismatch.description)
                XCTAssertTrue(mismatch.description.contains("rebuild"), mismatch.description)
            }
            // Generous (a loaded machine); the point is that it is well before the 5 s launch watchdog.
            XCTAssertLessThan(Double(MonotonicClock.now() - start) / 1e9, 3)
        }
    }

    /// A command the runtime does not know is answered with a control error, not silence.
    func testAnUnknownControlCommandIsAnsweredWithAnError() throws {
        let process = try ChildProcess(arguments: [try host()], environment: [FrugalProtocol.Environment.app: "idle"])
        let reader = EventStreamReader(fd: process.eventFD)
        defer {
            process.kill(SIGKILL)
            _ = process.waitForExit(until: MonotonicClock.now() + 10_000_000_000)
        }
        let line = Array(#"{"sequence":41,"command":"teleport","argument":"mars"}"#.utf8) + [10]
        XCTAssertEqual(line.withUnsafeBytes { write(process.controlFD, $0.baseAddress, $0.count) }, line.count)
        XCTAssertFalse(reader.waitForAck(41, until: MonotonicClock.now() + 10_000_000_000))
        let error = try XCTUnwrap(reader.controlError(for: 41), "no answer to an unknown command")
        XCTAssertEqual(error.command, "teleport")
        XCTAssertTrue(error.problem.contains("unknown command 'teleport'"), error.problem)
    }
}
