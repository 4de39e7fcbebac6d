import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// The app sandbox, made for a real run of the idle app.
final class SandboxTests: XCTestCase {
    func testRunGetsTheGuidesLayoutAndAReadOnlyBundleWithItsResources() throws {
        let resource = BundleResource(path: "data/atlas.bin", bytes: 3 * 1_048_576 + 5, content: .random, seed: 42)
        let runner = try ScenarioRunnerTests.runner { $0.keepSandboxes = true }
        let record = try runner.run(RunPlan(target: .builtIn(name: "idle"), scenario: ScenarioRunnerTests.short, repetition: 1,
                                            bundleResources: [resource]))
        XCTAssertEqual(record.outcome, .completed)
        let root = URL(fileURLWithPath: try XCTUnwrap(record.sandboxPath))
        defer { Sandbox.removeKept(root) }
        for directory in SandboxLayout.all {
            var isDirectory: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent(directory).path, isDirectory: &isDirectory) && isDirectory.boolValue, directory)
        }
        let file = root.appendingPathComponent("Bundle/data/atlas.bin")
        let data = try Data(contentsOf: file)
        XCTAssertEqual(data.count, resource.bytes)
        XCTAssertEqual(Array(data.prefix(4096)), resource.contents(offset: 0, count: 4096))
        XCTAssertEqual(Array(data.suffix(5)), resource.contents(offset: resource.bytes - 5, count: 5))
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o444, "bundle resources are read-only")
    }

    /// `RunPlan.documents` are there before launch, writable, in Documents, and are not the
    /// app's writes: the idle app's wchar stays far below their size.
    func testDocumentsAreInstalledBeforeLaunchAndAreNotTheAppsWrites() throws {
        let document = BundleResource(path: "notes/old.txt", bytes: 1_048_576, content: .pattern, seed: 3)
        let runner = try ScenarioRunnerTests.runner { $0.keepSandboxes = true }
        let record = try runner.run(RunPlan(target: .builtIn(name: "idle"), scenario: ScenarioRunnerTests.short, repetition: 1,
                                            documents: [document]))
        XCTAssertEqual(record.outcome, .completed)
        let root = URL(fileURLWithPath: try XCTUnwrap(record.sandboxPath))
        defer { Sandbox.removeKept(root) }
        let file = root.appendingPathComponent("Documents/notes/old.txt")
        XCTAssertEqual(Array(try Data(contentsOf: file)), document.contents(offset: 0, count: document.bytes))
        XCTAssertTrue(FileManager.default.isWritableFile(atPath: file.path), "the user's documents stay writable")
        XCTAssertEqual(record.sandboxFiles?.first { $0.path == "Documents/notes/old.txt" }?.bytes, document.bytes)
        let report = ReportBuilder.runReport(record)
        XCTAssertLessThan(try XCTUnwrap(report.metrics[MetricName.diskSyscallBytesWritten]?.value), 100_000)
        XCTAssertEqual(report.metrics[MetricName.diskLogicalBytesWritten]?.value, 0)

        XCTAssertThrowsError(try runner.run(RunPlan(target: .builtIn(name: "idle"), scenario: ScenarioRunnerTests.short, repetition: 1,
                                                    documents: [BundleResource(path: "../escape.txt", bytes: 1)])),
                             "a document path may not leave Documents")
    }

    /// A sandbox that cannot be made whole (a document that leaves Documents; on a full TMPDIR,
    /// documents larger than its space) is removed, not left with the failed run (issue 24,
    /// fresh probe: a half-made sandbox stayed in TMPDIR until the next run swept it).
    func testASandboxThatCannotBeMadeIsNotLeftBehind() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-sandbox-parent-\(getpid())")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        XCTAssertThrowsError(try Sandbox(parent: parent, workload: "idle", resources: [BundleResource(path: "data/a.bin", bytes: 10)],
                                         documents: [BundleResource(path: "../escape.txt", bytes: 1)]))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), [], "nothing of the sandbox is left")
    }

    func testSandboxIsRemovedAfterTheRunByDefault() throws {
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .builtIn(name: "idle"), scenario: ScenarioRunnerTests.short, repetition: 1))
        let path = try XCTUnwrap(record.sandboxPath)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}

extension Sandbox {
    /// Removes a sandbox kept by a test.
    static func removeKept(_ root: URL) {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.appendingPathComponent(SandboxLayout.bundle).path)
        try? FileManager.default.removeItem(at: root)
    }
}
