import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// A black-box program's memory warning is the signal it is configured with, or not applicable.
/// Light runs (XCTestCase+Machine.swift): a shell asleep, judged on whether the signal came and
/// what the step says, never on memory or time; `frugal run` gives a warning's run the machine
/// because it judges the footprint, which this test does not read.
final class ProgramMemoryWarningTests: XCTestCase {
    func testTheConfiguredSignalIsSentAndWithoutOneTheStepIsNotApplicable() throws {
        let scenario = Scenario(name: "warn", summary: "test", steps: [.launch, .wait(seconds: 0.3), .memoryWarning(level: .critical),
                                                                        .wait(seconds: 0.3), .terminate])
        // The shell notes the signal in a file of its sandbox's tmp, then keeps running.
        let script = #"trap 'echo warned > "$TMPDIR/warned"' USR1; while :; do sleep 0.05; done"#
        let configured = try ScenarioRunnerTests.runner { $0.programMemoryWarningSignal = SIGUSR1; $0.keepSandboxes = true }
            .run(RunPlan(target: .command(["sh", "-c", script]), scenario: scenario, repetition: 1).demanding(.light))
        defer { configured.sandboxPath.map { try? FileManager.default.removeItem(atPath: $0) } }
        XCTAssertEqual(configured.outcome, .completed, configured.outcomeDetail ?? "")
        let warning = try XCTUnwrap(configured.steps.first { $0.step.kind == .memoryWarning })
        XCTAssertNil(warning.problem)
        XCTAssertEqual(configured.memory?.deliveries.count, 1)
        XCTAssertTrue(configured.sandboxFiles?.contains { $0.path.hasSuffix("warned") } ?? false,
                      "the program got SIGUSR1: \(configured.sandboxFiles?.map(\.path) ?? [])")

        let plain = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["sh", "-c", script]), scenario: scenario, repetition: 1).demanding(.light))
        let step = try XCTUnwrap(plain.steps.first { $0.step.kind == .memoryWarning })
        XCTAssertTrue(step.problem?.contains("not applicable") ?? false, step.problem ?? "no problem recorded")
        XCTAssertEqual(plain.outcome, .completed, "the program was not killed by a signal it does not expect")
    }
}
