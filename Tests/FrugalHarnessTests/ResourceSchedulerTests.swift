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
        for name in ["launch.blocking", "launch.deferred", "feed.sync-on-main", "feed.async"] {
            XCTAssertFalse(WorkloadCatalogue.lightWorkloads.contains(name), name)
        }
    }

    /// Real runs: two light ones overlap; no run starts while the exclusive one runs.
    func testLightRunsOverlapAndNothingStartsBesideAnExclusiveRun() throws {
        let host = try XCTUnwrap(WorkloadHostLocator.locate())
        let plans = [Self.plan("idle", light: true), Self.plan("idle", light: false), Self.plan("idle", light: true)]
        let scheduler = ResourceScheduler(options: HarnessOptions(workloadHost: host), lightSlots: 2, launchSpacing: 0.2)
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
}
