import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// Real workload processes through the real harness. The runs that read a launch's time are
/// gated (XCTestCase+Machine.swift: the launch is held alone); the commands, judged on exit codes
/// and a 0.5 s timeout against a 30 s sleep, are light.
final class ScenarioRunnerTests: XCTestCase {
    static func runner(_ configure: (inout HarnessOptions) -> Void = { _ in }) throws -> ScenarioRunner {
        guard let host = WorkloadHostLocator.locate() else {
            XCTFail("frugal-workload-host is not built beside the tests")
            throw HarnessError.file(path: "frugal-workload-host", operation: "find")
        }
        var options = HarnessOptions(workloadHost: host)
        configure(&options)
        return ScenarioRunner(options: options)
    }

    static let short = Scenario(name: "short", summary: "test", steps: [.launch, .input(kind: "tap"), .wait(seconds: 2), .terminate])

    func testIdleAppCompletesAndShowsNoIdleWakeups() throws {
        let record = try Self.runner().run(RunPlan(target: .builtIn(name: "idle"), scenario: Self.short, repetition: 1).demanding(.gated("its launch time is read")))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertEqual(record.exitStatus?.code, 0)
        let states = record.events.compactMap { event -> AppState? in
            if case .stateChanged(let change) = event.body { return change.to }
            return nil
        }
        XCTAssertEqual(states, [.inactive, .active, .notRunning])
        let analysis = RunAnalysis(record)
        XCTAssertEqual(analysis.idlePhases.count, 1)
        // The principle: an idle app must show zero wakeups that Frugal caused.
        XCTAssertEqual(analysis.idlePhases.first?.wakeups, 0, "idle wakeups")
        XCTAssertLessThan(Double(try XCTUnwrap(analysis.launchNanoseconds)) / 1e6, 5000)
        XCTAssertTrue(analysis.handlers.contains { $0.name == "input:tap" }, "the input reached the delegate")
        XCTAssertNotNil(record.resourceUsage)
    }

    /// A real app killed by the launch watchdog. A 1 s watchdog instead of the guide's 5 s keeps
    /// the test short: the 5 s itself is checked at the exact second in `WatchdogTests`.
    func testLaunchWatchdogKillsARealAppThatDoesNotHandleEventsInTime() throws {
        let record = try Self.runner { $0.launchWatchdog = 1 }
            .run(RunPlan(target: .builtIn(name: "fixture.launch-hang"), scenario: ScenarioCatalogue.idle, repetition: 1).demanding(.gated("the launch watchdog and its kill are inside the launch")))
        XCTAssertEqual(record.outcome, .killedWatchdog)
        XCTAssertTrue(record.outcomeDetail?.contains("launch watchdog") ?? false, record.outcomeDetail ?? "")
        XCTAssertTrue(record.outcomeDetail?.contains("didFinishLaunching") ?? false, record.outcomeDetail ?? "")
        XCTAssertEqual(record.exitStatus?.signal, SIGKILL)
        let seconds = Double(record.endTime - record.startTime) / 1e9
        XCTAssertGreaterThanOrEqual(seconds, 1)
        XCTAssertLessThan(seconds, 6.9, "killed by the 1 s watchdog, not at the fixture's 7 s")
        let report = ReportBuilder.runReport(record)
        XCTAssertNil(report.metrics[MetricName.lifecycleLaunchMs]?.value)
        XCTAssertLessThan(report.audits["lifecycle.launch-time"]?.score ?? 1, 0.5)
    }

    func testBlackBoxCommandExitStatusAndTimeout() throws {
        let failing = try Self.runner().run(RunPlan(target: .command(["sh", "-c", "exit 3"]), scenario: Self.short, repetition: 1).demanding(.light))
        XCTAssertEqual(failing.outcome, .crashed)
        XCTAssertEqual(failing.exitStatus?.code, 3)
        XCTAssertTrue(failing.blackBox)
        let ok = try Self.runner().run(RunPlan(target: .command(["true"]), scenario: Self.short, repetition: 1).demanding(.light))
        XCTAssertEqual(ok.outcome, .completed)
        // A program that catches the scenario's SIGTERM and says so with 128 + 15 (the JVM, a
        // shell's trap) ended as asked; the same status unasked is a crash.
        let quick = Scenario(name: "quick", summary: "test", steps: [.launch, .wait(seconds: 0.3), .terminate])
        let trapping = try Self.runner().run(RunPlan(target: .command(["sh", "-c", "trap 'exit 143' TERM; while :; do sleep 0.05; done"]),
                                                     scenario: quick, repetition: 1).demanding(.light))
        XCTAssertEqual(trapping.exitStatus?.code, 143)
        XCTAssertEqual(trapping.outcome, .completed, trapping.outcomeDetail ?? "")
        let unasked = try Self.runner().run(RunPlan(target: .command(["sh", "-c", "exit 143"]), scenario: Self.short, repetition: 1).demanding(.light))
        XCTAssertEqual(unasked.outcome, .crashed)
        // The default black-box scenario (launch alone) lets the program run to its end, within the timeout.
        let toItsEnd = Scenario(name: "command", summary: "run the command to its end", steps: [.launch])
        let hanging = try Self.runner { $0.commandTimeout = 0.5 }.run(RunPlan(target: .command(["sleep", "30"]), scenario: toItsEnd, repetition: 1).demanding(.light))
        XCTAssertEqual(hanging.outcome, .timedOut)
        XCTAssertEqual(hanging.exitStatus?.signal, SIGKILL)
        XCTAssertTrue(hanging.outcomeDetail?.contains("--scenario program-lifecycle") == true,
                      "a program that runs until stopped is told which scenario judges it: \(hanging.outcomeDetail ?? "no detail")")
    }

    func testUnknownCommandIsAHarnessError() {
        XCTAssertThrowsError(try Self.runner().run(RunPlan(target: .command(["no-such-command-frugal"]), scenario: Self.short, repetition: 1))) { error in
            XCTAssertTrue("\(error)".contains("no-such-command-frugal"))
        }
    }
}
