import ArgumentParser
import FrugalCore
import FrugalWorkloads

/// `frugal list`: the built-in workloads and scenarios.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the built-in workloads and scenarios, one line each.")

    func run() throws {
        print("Workloads:")
        let width = WorkloadCatalogue.all.map(\.name.count).max() ?? 0
        for workload in WorkloadCatalogue.all {
            let suite = workload.inDefaultSuite ? "" : " [not in the default suite]"
            print("  \(workload.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(workload.summary) (scenarios: \(workload.defaultScenarios.joined(separator: ", ")))\(suite)")
        }
        print("Scenarios:")
        let scenarioWidth = ScenarioCatalogue.all.map(\.name.count).max() ?? 0
        for scenario in ScenarioCatalogue.all {
            print("  \(scenario.name.padding(toLength: scenarioWidth, withPad: " ", startingAt: 0))  \(scenario.summary)")
        }
    }
}
