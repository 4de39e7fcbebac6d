import ArgumentParser
import Foundation
import FrugalConfig
import FrugalCore
import FrugalWorkloads

/// `frugal list`: the built-in workloads and scenarios, and those of `frugal.yml` when there is one.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the workloads and scenarios, one line each: frugal.yml's (if any), then the built-in ones.")

    @Option(help: ArgumentHelp("The project file (default: ./frugal.yml if present).", valueName: "file"))
    var config: String?

    @Flag(help: "Print only the SwiftPM products frugal.yml's apps are built from, one per line (the plugin builds these).")
    var products = false

    func run() throws {
        let project = try Run.loadProject(config)
        if products {
            for product in project?.products ?? [] { print(product) }
            return
        }
        if let project {
            print("Apps (\(project.file)):")
            let width = project.apps.map(\.name.count).max() ?? 0
            for app in project.apps {
                let source: String
                switch app.source {
                case .executable(let path): source = path
                case .product(let product): source = "product \(product)"
                }
                print("  \(app.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(app.kind == .program ? "program " : "")\(source) (scenarios: \(app.scenarios.joined(separator: ", ")))")
            }
            if !project.scenarios.isEmpty {
                print("Scenarios (\(project.file)):")
                let scenarioWidth = project.scenarios.map(\.name.count).max() ?? 0
                for scenario in project.scenarios {
                    print("  \(scenario.name.padding(toLength: scenarioWidth, withPad: " ", startingAt: 0))  \(scenario.summary)")
                }
            }
        }
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
