import Foundation
import FrugalConfig
import FrugalCore
import FrugalHarness
import FrugalWorkloads

/// `frugal run` with a `frugal.yml`: the user's apps, their scenarios, their products.
extension Run {
    /// The project file: `--config`, else `frugal.yml` in the current directory when there is one.
    func loadProject() throws -> ProjectConfig? { try Self.loadProject(config) }

    /// The project file `config` names, else `frugal.yml` in the current directory when there is one.
    static func loadProject(_ config: String?) throws -> ProjectConfig? {
        let path: String
        if let config {
            path = config
        } else if FileManager.default.fileExists(atPath: ProjectConfigLoader.fileName) {
            path = ProjectConfigLoader.fileName
        } else {
            return nil
        }
        do {
            return try ProjectConfigLoader.load(path: path)
        } catch let error as ConfigError {
            throw CLIFailure.badInput(error.description)
        }
    }

    /// The plans for the project's apps named by `--workload` (all of them when none is named),
    /// each under `--scenario`'s scenarios or its own; built products are found or built first.
    func projectPlans(_ project: ProjectConfig, apps: [AppConfig]) throws -> [RunPlan] {
        let named = try scenarios.map { name -> Scenario in
            guard let scenario = project.scenario(named: name) else {
                let known = project.scenarios.map(\.name) + ScenarioCatalogue.all.map(\.name)
                throw CLIFailure.badInput("unknown scenario '\(name)'; known scenarios: \(known.joined(separator: ", "))")
            }
            return scenario
        }
        let executables = try ProductBuilder(project: project, productsDirectory: productsDir, quiet: quiet)
            .executables(for: apps)
        var plans: [RunPlan] = []
        for app in apps {
            let executable = executables[app.name] ?? ""
            let appScenarios = named.isEmpty ? app.scenarios.compactMap(project.scenario(named:)) : named
            for scenario in appScenarios.isEmpty ? [Self.commandScenario] : appScenarios {
                // The scenario's server: over the app's, field by field.
                let server = project.scenarioServers[scenario.name].map { (app.server ?? ServerSettings()).overridden(by: $0) } ?? app.server
                for repetition in 1...repetitions {
                    var plan: RunPlan
                    switch app.kind {
                    case .app:
                        let target = AppTarget(name: app.name, executable: executable, arguments: app.arguments, environment: app.environment)
                        plan = RunPlan(target: .app(target), scenario: scenario, repetition: repetition,
                                       bundleResources: app.resources, documents: app.documents)
                    case .program:
                        plan = RunPlan(target: .command([executable] + app.arguments), scenario: scenario, repetition: repetition)
                        plan.programName = app.name
                        plan.programEnvironment = app.environment
                        plan.programMemoryWarningSignal = app.memoryWarningSignal
                        plan.programInputSignal = app.inputSignal
                    }
                    plan.server = server
                    // As a built-in workload not known to sleep: the machine to itself for its
                    // launch and inputs, then, through a closing wait of 2 s or more, beside other
                    // runs (its wakeups and bytes there are counts, which a neighbour does not move).
                    // Without this a corpus of 56 short apps ran one after another (486 s at --repeat 1).
                    plan.demand = RunDemand.builtIn(scenario: scenario, isLight: false)
                    plans.append(plan)
                }
            }
        }
        return plans
    }

    /// A black-box command's scenario when none is named: run it to its end.
    static let commandScenario = Scenario(name: "command", summary: "run the command to its end", steps: [.launch])
}

/// Finds each app's executable: a path from `frugal.yml`, or a SwiftPM product built in release
/// (by the plugin, which passes `--products-dir`, or here with `swift build`).
struct ProductBuilder {
    let project: ProjectConfig
    let productsDirectory: String?
    let quiet: Bool

    func executables(for apps: [AppConfig]) throws -> [String: String] {
        var result: [String: String] = [:]
        var built: [String: String] = [:]
        for app in apps {
            switch app.source {
            case .executable(let path):
                result[app.name] = path
            case .product(let product):
                if built[product] == nil { built[product] = try executable(product: product, app: app) }
                result[app.name] = built[product]
            }
        }
        return result
    }

    private func problem(_ app: AppConfig, _ text: String) -> CLIFailure {
        .badInput(ConfigError(file: project.file, line: app.line, problem: "app '\(app.name)': \(text)").description)
    }

    private func executable(product: String, app: AppConfig) throws -> String {
        if let productsDirectory {
            let path = URL(fileURLWithPath: productsDirectory).appendingPathComponent(product).path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw problem(app, "product '\(product)' is not in \(productsDirectory)")
            }
            return path
        }
        let package = project.directory.path
        guard FileManager.default.fileExists(atPath: project.directory.appendingPathComponent("Package.swift").path) else {
            throw problem(app, "product '\(product)' needs a Package.swift beside \(project.file)")
        }
        if !quiet { ProcessIO.progress("frugal: building \(product) in release (swift build -c release --product \(product))") }
        let build = try swift(["build", "-c", "release", "--package-path", package, "--product", product], capture: false)
        guard build.status == 0 else { throw problem(app, "product '\(product)' did not build (swift build exited \(build.status))") }
        let binPath = try swift(["build", "-c", "release", "--package-path", package, "--show-bin-path"], capture: true)
        let directory = binPath.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let path = URL(fileURLWithPath: directory).appendingPathComponent(product).path
        guard binPath.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
            throw problem(app, "product '\(product)' built, but \(path) is not an executable")
        }
        return path
    }

    /// Runs `swift` with `arguments`; its output goes to standard error (progress) unless captured.
    private func swift(_ arguments: [String], capture: Bool) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        let pipe = Pipe()
        process.standardOutput = capture ? pipe : FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw CLIFailure.badInput("cannot run swift to build the products in \(project.file): \(ErrorText.reason(error))")
        }
        let output = capture ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
