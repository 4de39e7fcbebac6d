import XCTest
@testable import FrugalHarness
import FrugalCore

/// A run no scheduler gates, in a process sharing a ``MachineGate`` (a test's run, `--jobs N`):
/// it holds the machine as its demand says (``MachineStepGate``). Another instance on the same
/// file stands in for the other process; "held" means it could not take the gate within 0.15 s.
extension MachineGateTests {
    /// Whether another process holds the gate: this one's attempt gives up after 0.15 s.
    func heldElsewhere() throws -> Bool { try Self.heldElsewhere(path) }

    static func heldElsewhere(_ path: String) throws -> Bool {
        let other = try MachineGate(path: path)
        let started = Date()
        guard other.acquire(shouldStop: { Date().timeIntervalSince(started) > 0.15 }) else { return true }
        other.release()
        return false
    }

    /// launch, wait, input, closing idle (≥ 2 s, then terminate): index 3 is the idle.
    static let stepGateScenario = Scenario(name: "gate", summary: "test", steps: [
        .launch, .wait(seconds: 0.1), .input(kind: "tap"), .wait(seconds: 3), .terminate,
    ])

    /// What another process sees before, during and after each step, and after the run's end.
    func holds(_ demand: RunDemand) throws -> [String] {
        var plan = RunPlan(target: .builtIn(name: "idle"), scenario: Self.stepGateScenario, repetition: 1)
        plan.demand = demand
        let gate = MachineStepGate(machine: try MachineGate(path: path), plan: plan, interruption: SuiteInterruption(), settle: 0)
        var seen: [String] = []
        func look(_ moment: String) throws { seen.append("\(moment) \(try heldElsewhere() ? "held" : "free")") }
        gate.willStart()
        try look("start")
        for (index, step) in Self.stepGateScenario.steps.enumerated() {
            gate.willPerform(step, index: index)
            try look(step.kind.name)
            gate.didPerform(step, index: index)
        }
        try look("after")
        gate.end()
        try look("end")
        return seen
    }

    func testALightRunHoldsTheMachineForItsLaunchOnly() throws {
        XCTAssertEqual(try holds(.light), ["start held", "launch held", "wait free", "input free", "wait free", "terminate free",
                                           "after free", "end free"])
    }

    func testAGatedRunHoldsItForEachStepJudgedOnTime() throws {
        XCTAssertEqual(try holds(.gated("test")), ["start held", "launch held", "wait free", "input held", "wait free",
                                                   "terminate held", "after free", "end free"])
    }

    func testAnExclusiveRunHoldsItWholeAndOneUntilIdleToItsClosingWait() throws {
        XCTAssertEqual(try holds(.exclusive("test")), ["start held", "launch held", "wait held", "input held", "wait held",
                                                       "terminate held", "after held", "end free"])
        XCTAssertEqual(try holds(.exclusiveUntilIdle("test")), ["start held", "launch held", "wait held", "input held", "wait free",
                                                                "terminate held", "after free", "end free"])
    }

    /// A real run through ``ScenarioRunner`` with the gate in its options: a plan that declares
    /// nothing holds the machine through its waits; a light one gives it back after its launch.
    func testARealRunHoldsTheMachineAsItsPlanDeclares() throws {
        let machine = try MachineGate(path: path)
        let runner = try ScenarioRunnerTests.runner { $0.machineGate = machine }
        for (demand, expected) in [(RunDemand?.none, true), (.light, false)] {
            var plan = RunPlan(target: .builtIn(name: "idle"), scenario: Scenario(name: "gate", summary: "test", steps: [
                .launch, .wait(seconds: 0.5), .terminate,
            ]), repetition: 1)
            if let demand { plan.demand = demand }
            let seen = Seen(), path = path
            // Before the terminate: the launch is over and the run is in its wait.
            plan.beforeStep = { index in if index == 2 { seen.set(try? Self.heldElsewhere(path)) } }
            let record = try runner.run(plan)
            XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
            XCTAssertEqual(seen.value, expected, "\(String(describing: demand)): held through its wait")
            XCTAssertFalse(try heldElsewhere(), "given back at the run's end")
        }
    }

    // @unchecked: `held` is read and written holding `lock`.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var held: Bool??
        func set(_ value: Bool?) { lock.withLock { held = value } }
        var value: Bool? { lock.withLock { held ?? nil } }
    }
}
