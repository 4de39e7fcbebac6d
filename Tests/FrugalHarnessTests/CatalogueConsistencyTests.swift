import XCTest
import FrugalCore
import FrugalWorkloads

/// The catalogues are assembled from one list per area: names must stay unique and every
/// default scenario a workload names must exist.
final class CatalogueConsistencyTests: XCTestCase {
    func testWorkloadAndScenarioNamesAreUnique() {
        let workloads = WorkloadCatalogue.all.map(\.name)
        XCTAssertEqual(Set(workloads).count, workloads.count, "duplicate workloads: \(workloads.filter { name in workloads.filter { $0 == name }.count > 1 })")
        let scenarios = ScenarioCatalogue.all.map(\.name)
        XCTAssertEqual(Set(scenarios).count, scenarios.count, "duplicate scenarios: \(scenarios.filter { name in scenarios.filter { $0 == name }.count > 1 })")
    }

    func testEveryDefaultScenarioExistsAndStartsWithLaunch() {
        for workload in WorkloadCatalogue.all {
            XCTAssertFalse(workload.defaultScenarios.isEmpty, workload.name)
            for name in workload.defaultScenarios {
                let scenario = ScenarioCatalogue.named(name)
                XCTAssertNotNil(scenario, "\(workload.name) names unknown scenario \(name)")
                XCTAssertEqual(scenario?.steps.first, .launch, "\(name) must start with launch")
            }
        }
    }

    func testEveryMeasuredRuleHasExactlyOneAudit() {
        let audited = Audits.all.map(\.rule.id)
        XCTAssertEqual(Set(audited).count, audited.count, "an audit is listed twice")
    }
}
