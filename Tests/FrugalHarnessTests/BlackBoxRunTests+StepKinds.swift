import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

extension BlackBoxRunTests {
    /// The kinds that declare no program form (`program: .notApplicable`: interrupt, notify) are recorded as not
    /// applicable, with the reason, and the program runs on to its terminate.
    func testStepsWithoutABlackBoxFormAreNotApplicable() throws {
        let scenario = Scenario(name: "events", summary: "test", steps: [.launch, .interrupt(seconds: 0.2), .notify(name: "significant-time-change"),
                                                                          .wait(seconds: 0.2), .terminate])
        let record = try ScenarioRunnerTests.runner()
            .run(RunPlan(target: .command(["sh", "-c", "while :; do sleep 0.05; done"]), scenario: scenario, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let refused = StepKind.all.filter { !$0.appliesToBlackBox }.map(\.name)
        XCTAssertEqual(Set(refused), ["interrupt", "notify"])
        for step in record.steps where refused.contains(step.step.name) {
            XCTAssertTrue(step.problem?.contains("not applicable to a black-box program") ?? false, "\(step.step.description): \(step.problem ?? "no problem")")
        }
        XCTAssertEqual(record.steps.filter { refused.contains($0.step.name) }.count, 2)
        XCTAssertNil(record.steps.first { $0.step == .terminate }?.problem)
    }
}
