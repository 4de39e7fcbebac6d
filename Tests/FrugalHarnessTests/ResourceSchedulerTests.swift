import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalWorkloads

/// Scheduling by demand: light runs side by side, an exclusive run with no launch beside it.
final class ResourceSchedulerTests: XCTestCase {
    static let short = Scenario(name: "short", summary: "", steps: [.launch, .wait(seconds: 1.5), .terminate])

    static func plan(_ name: String, _ scenario: Scenario = short, light: Bool) -> RunPlan {
        var plan = RunPlan(target: .builtIn(name: name), scenario: scenario, repetition: 1)
        plan.demand = light ? .light : .exclusive("test")
        return plan
    }

    func testQueuesSplitByDemandLongestFirst() {
        let long = Scenario(name: "long", summary: "", steps: [.launch, .wait(seconds: 9), .terminate])
        let plans = [Self.plan("a", light: true), Self.plan("b", long, light: false), Self.plan("c", long, light: true), Self.plan("d", light: false)]
        let queues = ResourceScheduler.queues(plans)
        XCTAssertEqual(queues.light, [2, 0])
        XCTAssertEqual(queues.exclusive, [1, 3])
    }

    func testMemoryPressureScenariosAndUnknownWorkloadsRunAlone() {
        XCTAssertEqual(RunDemand.of(Scenario(name: "p", summary: "", steps: [.launch, .pressure(limitBytes: 1 << 20)])), .exclusive("memory pressure (p)"))
        XCTAssertNil(RunDemand.of(Self.short))
        XCTAssertFalse(RunPlan(target: .command(["true"]), scenario: Self.short, repetition: 1).demand.isLight)
        // Every light entry names a real workload, and none of the timing-judged pairs is light.
        for name in WorkloadCatalogue.lightWorkloads { XCTAssertNotNil(WorkloadCatalogue.named(name), name) }
        for name in ["launch.blocking", "launch.deferred", "feed.sync-on-main", "feed.async", "prefs.save-every-change", "prefs.save-coalesced"] {
            XCTAssertFalse(WorkloadCatalogue.lightWorkloads.contains(name), name)
        }
    }

    /// Real runs: two light ones overlap; no run starts while the exclusive one runs.
    func testLightRunsOverlapAndNothingStartsBesideAnExclusiveRun() throws {
        let host = try XCTUnwrap(WorkloadHostLocator.locate())
        let plans = [Self.plan("idle", light: true), Self.plan("idle", light: false), Self.plan("idle", light: true)]
        let scheduler = ResourceScheduler(options: HarnessOptions(workloadHost: host), lightSlots: 2)
        let records = try scheduler.run(plans)
        XCTAssertEqual(records.count, 3)
        XCTAssertTrue(records.allSatisfy { $0.outcome == .completed }, "\(records.map(\.outcome))")
        let exclusive = records[1]
        // The two light runs start first (free slots) and overlap each other.
        XCTAssertLessThan(max(records[0].startTime, records[2].startTime), min(records[0].endTime, records[2].endTime))
        for light in [records[0], records[2]] {
            XCTAssertFalse((exclusive.startTime...exclusive.endTime).contains(light.startTime), "a light run launched beside the exclusive one")
        }
    }

    /// Real runs: each launch has the machine to itself. A run starts only once the launch
    /// before it has ended (its launch step's end is recorded before step 1 announces it), and
    /// not only when that run has ended.
    func testNothingStartsBeforeTheLaunchBeforeItHasEnded() throws {
        let host = try XCTUnwrap(WorkloadHostLocator.locate())
        let plans = (0..<3).map { _ in Self.plan("idle", light: true) }
        let records = try ResourceScheduler(options: HarnessOptions(workloadHost: host)).run(plans)
        XCTAssertTrue(records.allSatisfy { $0.outcome == .completed }, "\(records.map(\.outcome))")
        let byStart = records.sorted { $0.startTime < $1.startTime }
        for (earlier, later) in zip(byStart, byStart.dropFirst()) {
            let launched = try XCTUnwrap(earlier.steps.first { $0.index == 0 }).end
            XCTAssertGreaterThanOrEqual(later.startTime, launched, "started beside a launch")
            XCTAssertLessThan(later.startTime, earlier.endTime, "light runs still overlap")
        }
    }

    func testStepGatedWorkloadsAreRealNotLightAndGatedOnlyOutsidePressure() {
        for name in WorkloadCatalogue.stepGatedWorkloads {
            XCTAssertNotNil(WorkloadCatalogue.named(name), name)
            XCTAssertFalse(WorkloadCatalogue.lightWorkloads.contains(name), name)
        }
        // Workloads that work between their steps keep the machine from start to end.
        for name in ["launch.deferred", "resume.light", "background.keeps-working", "background.rests", "downloads.in-caches",
                     "export.cleans-tmp", "notes.append-delta", "prefs.save-coalesced"] {
            XCTAssertFalse(WorkloadCatalogue.stepGatedWorkloads.contains(name), name)
        }
        let refresh = ScenarioCatalogue.named("refresh")!
        XCTAssertEqual(RunDemand.builtIn(scenario: refresh, isLight: false, isGated: true), .gated("judged on timing in its steps only; sleeps between them"))
        let squeezed = Scenario(name: "p", summary: "", steps: [.launch, .pressure(limitBytes: 1 << 20), .terminate])
        XCTAssertEqual(RunDemand.builtIn(scenario: squeezed, isLight: false, isGated: true), .exclusive("memory pressure (p)"))
        let queues = ResourceScheduler.queues([Self.plan("a", light: true), RunPlan(target: .builtIn(name: "g"), scenario: Self.short), Self.plan("c", light: false)]
            .enumerated().map { offset, plan in
                var plan = plan
                if offset == 1 { plan.demand = .gated("t") }
                return plan
            })
        XCTAssertEqual(queues.light, [0])
        XCTAssertEqual(queues.exclusive, [2])
        XCTAssertEqual(queues.gated, [1])
    }

    func testTimingJudgedBuiltInsAreLetGoAtALongClosingIdle() throws {
        let standard = ScenarioCatalogue.standard
        let idle = try XCTUnwrap(RunDemand.idleTail(of: standard))
        XCTAssertEqual(standard.steps[idle], .wait(seconds: 8))
        XCTAssertEqual(RunDemand.builtIn(scenario: standard, isLight: false), .exclusiveUntilIdle("judged on timing; sleeps through its closing wait"))
        XCTAssertEqual(RunDemand.builtIn(scenario: standard, isLight: true), .light)
        // A closing wait under 2 s (disk-session's 1.5 s: coalesced saves land in it) keeps the machine.
        XCTAssertNil(RunDemand.idleTail(of: ScenarioCatalogue.diskSession))
        XCTAssertEqual(RunDemand.builtIn(scenario: ScenarioCatalogue.diskSession, isLight: false), .exclusive("CPU-bound or judged on timing"))
        // Memory pressure keeps the machine to the end, whatever the scenario ends with.
        let squeezed = Scenario(name: "p", summary: "", steps: [.launch, .pressure(limitBytes: 1 << 20), .wait(seconds: 5), .terminate])
        XCTAssertEqual(RunDemand.builtIn(scenario: squeezed, isLight: false), .exclusive("memory pressure (p)"))
        XCTAssertNil(RunDemand.idleTail(of: Scenario(name: "w", summary: "", steps: [.launch, .wait(seconds: 5)])))
    }

    /// Real runs: the second exclusive run starts once the first reaches its closing idle, not
    /// before (its launch and first wait have the machine) and not only after it ended.
    func testAnExclusiveRunLetsTheMachineGoAtItsClosingIdle() throws {
        let host = try XCTUnwrap(WorkloadHostLocator.locate())
        let scenario = Scenario(name: "tail", summary: "", steps: [.launch, .wait(seconds: 0.5), .wait(seconds: 3), .terminate])
        var plans = [Self.plan("idle", scenario, light: false), Self.plan("idle", scenario, light: false)]
        for index in plans.indices { plans[index].demand = .exclusiveUntilIdle("test") }
        let records = try ResourceScheduler(options: HarnessOptions(workloadHost: host)).run(plans)
        XCTAssertEqual(records.count, 2)
        XCTAssertTrue(records.allSatisfy { $0.outcome == .completed }, "\(records.map(\.outcome))")
        let (first, second) = records[0].startTime <= records[1].startTime ? (records[0], records[1]) : (records[1], records[0])
        // The first wait's end is recorded before the closing idle is announced.
        let firstWaitEnded = try XCTUnwrap(first.steps.first { $0.index == 1 }).end
        XCTAssertGreaterThanOrEqual(second.startTime, firstWaitEnded, "started before the first run's closing idle")
        XCTAssertLessThan(second.startTime, first.endTime, "waited for the first run to end")
    }
}
