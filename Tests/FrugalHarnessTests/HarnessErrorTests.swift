import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// A caller can tell the harness's failures apart, and reach the failed call and its errno.
final class HarnessErrorTests: XCTestCase {
    /// A launcher whose spawn fails as `posix_spawn` does for a missing program.
    struct FailingLauncher: ProcessLauncher {
        var startsSystemProcesses: Bool { false }
        func launch(_ request: LaunchRequest, clock: any HarnessClock) throws -> (process: any AppProcess, events: EventStreamReader) {
            throw SystemCallError(call: "posix_spawn", subject: request.arguments.first, errno: ENOENT)
        }
    }

    func testASpawnFailureIsASpawnErrorWithItsErrno() throws {
        let plan = WatchdogTests.plan([.launch, .terminate])
        let runner = ScenarioRunner(options: HarnessOptions(workloadHost: "/nonexistent/host"), launcher: FailingLauncher(), clock: ManualClock())
        XCTAssertThrowsError(try runner.run(plan)) { error in
            guard case HarnessError.spawn(let program, _) = error else { return XCTFail("not a spawn error: \(error)") }
            XCTAssertEqual(program, "/nonexistent/host")
            XCTAssertEqual((error as? HarnessError)?.systemCallError?.errno, ENOENT)
            XCTAssertEqual((error as? HarnessError)?.systemCallError?.call, "posix_spawn")
            // The one line the CLI prints names the program and the reason.
            XCTAssertTrue("\(error)".hasPrefix("cannot start /nonexistent/host: posix_spawn"), "\(error)")
        }
    }

    func testASandboxThatCannotBeMadeIsASandboxError() throws {
        // A regular file cannot hold the sandbox's directory.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-not-a-directory-\(getpid())")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data()))
        defer { try? FileManager.default.removeItem(at: file) }
        var options = HarnessOptions(workloadHost: "/nonexistent/host")
        options.sandboxParent = file
        let runner = ScenarioRunner(options: options, launcher: SimulatedAppLauncher(clock: ManualClock()), clock: ManualClock())
        XCTAssertThrowsError(try runner.run(WatchdogTests.plan([.launch, .terminate]))) { error in
            guard case HarnessError.sandbox(let parent, _) = error else { return XCTFail("not a sandbox error: \(error)") }
            XCTAssertEqual(parent, file.path)
            XCTAssertTrue("\(error)".hasPrefix("cannot create the app sandbox under \(file.path): "), "\(error)")
        }
    }

    func testAScenarioThatDoesNotStartWithLaunchIsAScenarioError() {
        let runner = ScenarioRunner(options: HarnessOptions(workloadHost: "/nonexistent/host"),
                                    launcher: SimulatedAppLauncher(clock: ManualClock()), clock: ManualClock())
        XCTAssertThrowsError(try runner.run(WatchdogTests.plan([.wait(seconds: 1)]))) { error in
            guard case HarnessError.scenario(let name, _) = error else { return XCTFail("not a scenario error: \(error)") }
            XCTAssertEqual(name, "test")
            XCTAssertEqual("\(error)", "scenario 'test' must start with launch")
        }
    }
}
