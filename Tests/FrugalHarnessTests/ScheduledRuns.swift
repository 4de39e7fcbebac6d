import Foundation
import Synchronization
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalWorkloads

/// Built-in workloads, each under its default scenario, run once for all the tests that read
/// them (one class's, or several classes': ``pairs``) and scheduled as `frugal run` schedules
/// them (``ResourceScheduler``, the demands `frugal run` gives built-in workloads): the light
/// ones sleep side by side and beside the exclusive ones, which run alone. The first test to
/// ask runs them all; the pairs are then judged exactly as when each ran alone, in about the
/// time of the exclusive ones (the scheduler's promise, which `frugal run` relies on too: light
/// neighbours move no verdict).
final class ScheduledRuns: Sendable {
    let workloads: [String]
    /// The runs, or why they could not be made: kept either way, so a harness failure fails
    /// every test that reads them at once instead of making the whole batch again for each
    /// (``pairs`` is about a minute of runs).
    private let records = Mutex<Result<[String: RunRecord], any Error>?>(nil)

    init(_ workloads: [String]) { self.workloads = workloads }

    /// The plan `frugal run` makes for a built-in workload under its first default scenario.
    static func plan(_ workload: String) throws -> RunPlan {
        guard let definition = WorkloadCatalogue.named(workload) else {
            // A test fixture app (Tests/IdiomFixtures), under the thread workloads' short idle;
            // it sleeps, so it runs beside the others.
            var plan = RunPlan(target: try MainThreadIdiomTests.fixture(workload), scenario: ScenarioCatalogue.shortIdle, repetition: 1)
            plan.demand = RunDemand.builtIn(scenario: ScenarioCatalogue.shortIdle, isLight: true)
            return plan
        }
        let scenario = try XCTUnwrap(definition.defaultScenarios.first.flatMap(ScenarioCatalogue.named))
        var plan = RunPlan(target: .builtIn(name: workload), scenario: scenario, repetition: 1,
                           bundleResources: definition.bundleResources, documents: definition.documents)
        plan.demand = RunDemand.builtIn(scenario: scenario, isLight: WorkloadCatalogue.lightWorkloads.contains(workload),
                                        isGated: WorkloadCatalogue.stepGatedWorkloads.contains(workload))
        return plan
    }

    func record(_ workload: String) throws -> RunRecord {
        try records.withLock { records in
            if records == nil {
                records = Result {
                    let host = try XCTUnwrap(WorkloadHostLocator.locate(), "frugal-workload-host is not built beside the tests")
                    let ran = try ResourceScheduler(options: HarnessOptions(workloadHost: host)).run(try workloads.map(Self.plan))
                    return Dictionary(ran.map { ($0.workload, $0) }, uniquingKeysWith: { first, _ in first })
                }
            }
            return try XCTUnwrap(try records?.get()[workload], "\(workload) is not among these scheduled runs")
        }
    }
}
