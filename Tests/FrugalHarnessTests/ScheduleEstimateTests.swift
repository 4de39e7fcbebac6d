import XCTest
@testable import FrugalHarness
import FrugalCore

/// The time left of a suite, played out under its schedule's rules rather than summed.
final class ScheduleEstimateTests: XCTestCase {
    static func plan(_ seconds: Double, _ demand: RunDemand) -> RunPlan {
        var plan = RunPlan(target: .builtIn(name: "w"), scenario: Scenario(name: "s\(seconds)", summary: "", steps: [.launch, .wait(seconds: seconds), .terminate]))
        plan.demand = demand
        return plan
    }

    func testLightRunsOverlapAndExclusiveOnesFollowEachOther() {
        var estimate = ScheduleEstimate(jobs: nil)
        estimate.overhead = 0
        estimate.launchHold = 0
        // Three 10 s light runs side by side, beside two 5 s exclusive runs one after the other.
        let plans = [Self.plan(10, .light), Self.plan(10, .light), Self.plan(10, .light), Self.plan(5, .exclusive("t")), Self.plan(5, .exclusive("t"))]
        let items = estimate.order(plans).map { estimate.item(plans[$0]) }
        XCTAssertEqual(estimate.secondsLeft(pending: items, running: []), 10, accuracy: 1e-9)
        // Four exclusive 5 s runs: 20 s, whatever sleeps beside them.
        let exclusive = (0..<4).map { _ in Self.plan(5, .exclusive("t")) } + [Self.plan(10, .light)]
        XCTAssertEqual(estimate.secondsLeft(pending: estimate.order(exclusive).map { estimate.item(exclusive[$0]) }, running: []), 20, accuracy: 1e-9)
        // The sum of the scenarios would have said 50 and 30.
    }

    func testAnExclusiveRunLetsGoAtItsClosingIdleAndSlotsBound() {
        var estimate = ScheduleEstimate(jobs: nil, lightSlots: 2)
        estimate.overhead = 0
        estimate.launchHold = 0
        let closing = RunPlan(target: .builtIn(name: "w"), scenario: Scenario(name: "c", summary: "", steps: [.launch, .wait(seconds: 2), .wait(seconds: 8), .terminate]))
        var held = closing
        held.demand = .exclusiveUntilIdle("t")
        // It holds the machine 2 s, then sleeps 8 s beside the next exclusive run (5 s): 10 s.
        let plans = [held, Self.plan(5, .exclusive("t"))]
        XCTAssertEqual(estimate.secondsLeft(pending: estimate.order(plans).map { estimate.item(plans[$0]) }, running: []), 10, accuracy: 1e-9)
        // Three light runs in two slots: the third starts when one ends.
        let light = [Self.plan(4, .light), Self.plan(4, .light), Self.plan(4, .light)]
        XCTAssertEqual(estimate.secondsLeft(pending: light.map { estimate.item($0) }, running: []), 8, accuracy: 1e-9)
        // A run under way counts with what it has left.
        XCTAssertEqual(estimate.secondsLeft(pending: [], running: [.init(left: 3, holdLeft: 0, light: true)]), 3, accuracy: 1e-9)
    }

    func testGatedRunsOverlapAfterTheExclusiveOnesBoundedByTheirGateTime() {
        var estimate = ScheduleEstimate(jobs: nil, gatedSlots: 2)
        estimate.overhead = 0
        estimate.launchHold = 0
        estimate.stepHold = 0.5
        // Each gated 4 s run (no closing idle) asks the gate twice after its launch (input,
        // terminate): 1 s. Two slots: two runs side by side, then two more: 8 s, then a 3 s
        // exclusive run: 11 s.
        let working = Scenario(name: "w", summary: "", steps: [.launch, .wait(seconds: 4), .input(kind: "x"), .terminate])
        let gated = [Self.plan(3, .exclusive("t"))] + (0..<4).map { _ in
            var plan = RunPlan(target: .builtIn(name: "w"), scenario: working)
            plan.demand = .gated("t")
            return plan
        }
        XCTAssertEqual(estimate.order(gated).prefix(4).map { gated[$0].demand.isGated }, [true, true, true, true])
        XCTAssertEqual(estimate.secondsLeft(pending: estimate.order(gated).map { estimate.item(gated[$0]) }, running: []), 11, accuracy: 1e-9)
        // Many short gated runs: the gate's time bounds the end (20 × 4 judged steps × 0.5 s = 40 s).
        let busy = Scenario(name: "b", summary: "", steps: [.launch, .input(kind: "a"), .input(kind: "b"), .input(kind: "c"), .wait(seconds: 1), .terminate])
        var plan = RunPlan(target: .builtIn(name: "w"), scenario: busy)
        plan.demand = .gated("t")
        estimate.gatedSlots = 20
        XCTAssertEqual(estimate.secondsLeft(pending: Array(repeating: estimate.item(plan), count: 20), running: []), 40, accuracy: 1e-9)
        // A gated run lets an exclusive one start at its closing idle: 2 s, then 5 s beside its 8 s of idle: 10 s.
        var tail = RunPlan(target: .builtIn(name: "w"), scenario: Scenario(name: "c", summary: "", steps: [.launch, .wait(seconds: 2), .wait(seconds: 8), .terminate]))
        tail.demand = .gated("t")
        let mixed = [Self.plan(5, .exclusive("t")), tail]
        XCTAssertEqual(estimate.secondsLeft(pending: estimate.order(mixed).map { estimate.item(mixed[$0]) }, running: []), 10, accuracy: 1e-9)
    }

    func testJobsWorkersAndCalibration() {
        var estimate = ScheduleEstimate(jobs: 2)
        estimate.overhead = 0
        let plans = [Self.plan(6, .light), Self.plan(4, .light), Self.plan(2, .light)]
        // Two workers: 6 on one, 4 then 2 on the other.
        XCTAssertEqual(estimate.secondsLeft(pending: estimate.order(plans).map { estimate.item(plans[$0]) }, running: []), 6, accuracy: 1e-9)
        // Runs taking 1.5 s past their waits, and one odd run: the overhead is 1.5, the scale 1.
        let fitted = estimate.calibrated(planned: [2, 4, 6, 1, 3], actual: [3.5, 5.5, 7.5, 40, 4.5])
        XCTAssertEqual(fitted.overhead, 1.5, accuracy: 1e-9)
        XCTAssertEqual(fitted.scale, 1, accuracy: 1e-9)
        // A machine twice as slow: each run twice its waits + 1 s.
        let slow = estimate.calibrated(planned: [2, 4, 6], actual: [6, 10, 14])
        XCTAssertEqual(slow.overhead, 6, accuracy: 1e-9)
        XCTAssertEqual(slow.scale, 1, accuracy: 1e-9)
        // Bounded: a machine 100 times slower is not believed from a few runs.
        XCTAssertEqual(estimate.calibrated(planned: [1], actual: [200]).overhead, 30, accuracy: 1e-9)
    }
}
