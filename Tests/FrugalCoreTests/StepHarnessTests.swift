import XCTest
import FrugalCore

/// Each step kind says how it runs in the harness's actions (`StepHarness`), in its own
/// declaration; a double that records the calls reads what each kind asks of the harness,
/// for an app and for a black-box program, without a run. The table is the vocabulary's
/// contract with `SessionStepHarness` (FrugalHarness), which carries each action out.
final class StepHarnessTests: XCTestCase {
    /// One step of every kind, and the calls it makes for an app and for a program.
    static let expected: [(step: ScenarioStep, app: [String], program: [String]?)] = [
        (.launch, ["launchApp"], ["markProgramLaunched"]),
        (.wait(seconds: 2.5), ["idle(2.5)"], ["idle(2.5)"]),
        (.input(kind: "tap"), ["deliverInput(tap)"], ["signalInput(tap)"]),
        (.terminate, ["terminateApp"], ["terminateProgram"]),
        (.interrupt(seconds: 3), ["interruptApp(3.0)"], nil),
        (.home, ["sendAppHome"], ["suspendProgram"]),
        (.foreground, ["bringAppToForeground"], ["resumeProgram"]),
        (.kill, ["killApp"], ["killProgram"]),
        (.relaunch, ["relaunchApp"], ["relaunchProgram"]),
        (.notify(name: "significant-time-change"), ["notifyApp(significant-time-change)"], nil),
        (.network(profile: "3g"), ["setNetwork(3g)"], ["setNetwork(3g)"]),
        (.fault(kind: "reset:2"), ["injectFault(reset:2)"], ["injectFault(reset:2)"]),
        (.memoryWarning(level: .critical), ["warnApp(critical)"], ["signalMemoryWarning(critical)"]),
        (.pressure(limitBytes: 48 << 20), ["limitMemory(\(48 << 20))"], ["limitMemory(\(48 << 20))"]),
        (.balloon(bytes: 64 << 20), ["startBalloon(\(64 << 20))"], ["startBalloon(\(64 << 20))"]),
        (.mark("after-sync"), ["record(mark(after-sync))"], ["record(mark(after-sync))"]),
        (.background(seconds: 5), ["sendAppHome", "idle(5.0)", "bringAppToForeground"], ["suspendProgram", "idle(5.0)", "resumeProgram"]),
    ]

    func testEachKindAsksTheHarnessForItsActions() {
        for (step, app, program) in Self.expected {
            let calls = step.kind.calls(step)
            XCTAssertEqual(calls.app, app, "\(step.description) for an app")
            XCTAssertEqual(calls.program, program, "\(step.description) for a program")
        }
    }

    /// Every kind of the vocabulary is in the table above: a kind added without saying here
    /// what it asks of the harness fails.
    func testEveryKindIsChecked() {
        let checked = Set(Self.expected.map(\.step.kind.name))
        for kind in StepKind.all {
            XCTAssertTrue(checked.contains(kind.name), "\(kind.name): add what it asks of the harness to StepHarnessTests.expected")
        }
    }

    /// Whether a kind applies to a black-box program is one fact with how it runs for one.
    func testAKindAppliesToAProgramExactlyWhenItSaysHowItRunsForOne() {
        for kind in StepKind.all {
            XCTAssertEqual(kind.appliesToBlackBox, kind.runForProgram != nil, kind.name)
        }
        XCTAssertEqual(Set(StepKind.all.filter { !$0.appliesToBlackBox }.map(\.name)), ["interrupt", "notify"])
    }

    /// `background: SECONDS` is an app switch built from three existing actions; like the runner
    /// between steps, it goes no further once a part has ended the scenario (a watchdog kill in
    /// `home`, the app's exit while away).
    func testABackgroundStopsAfterAPartThatEndedTheScenario() {
        let step = ScenarioStep.background(seconds: 2)
        XCTAssertEqual(step.kind.calls(step, goesOnFor: 1).app, ["sendAppHome"])
        XCTAssertEqual(step.kind.calls(step, goesOnFor: 1).program, ["suspendProgram"])
        XCTAssertEqual(step.kind.calls(step, goesOnFor: 2).app, ["sendAppHome", "idle(2.0)"])
        XCTAssertEqual(step.kind.calls(step, goesOnFor: 2).program, ["suspendProgram", "idle(2.0)"])
    }
}
