import XCTest
@testable import FrugalHarness
import FrugalCore

final class SuiteRunnerTests: XCTestCase {
    /// The longest scenario starts first (so side-by-side jobs end together), and the records
    /// still come back in the plans' order.
    func testLongestScenarioStartsFirstAndRecordsKeepPlanOrder() throws {
        let host = try XCTUnwrap(WorkloadHostLocator.locate())
        let short = Scenario(name: "short", summary: "", steps: [.launch, .wait(seconds: 0.5), .terminate])
        let long = Scenario(name: "long", summary: "", steps: [.launch, .wait(seconds: 1.5), .terminate])
        let plans = [RunPlan(target: .builtIn(name: "idle"), scenario: short, repetition: 1),
                     RunPlan(target: .builtIn(name: "idle"), scenario: long, repetition: 1)]
        let records = try SuiteRunner(options: HarnessOptions(workloadHost: host), jobs: 1).run(plans)
        XCTAssertEqual(records.map(\.scenario), ["short", "long"], "plan order")
        XCTAssertLessThan(records[1].startTime, records[0].startTime, "the long scenario ran first")
    }
}
