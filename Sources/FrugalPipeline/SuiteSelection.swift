import FrugalConfig
import FrugalCore
import FrugalHarness
import FrugalWorkloads
import Foundation

/// What a suite runs, as a user names it: built-in workloads or a project's apps, scenarios,
/// repetitions, or one program run as a black box (`frugal run`'s arguments, without the
/// parsing).
public struct SuiteSelection: Sendable {
    /// Built-in workloads or a project's apps by name; empty: the default suite or every app.
    public var workloads: [String] = []
    /// Scenarios by name; empty: each workload's own.
    public var scenarios: [String] = []
    /// Runs per workload and scenario.
    public var repetitions = 1
    /// A program run as a black box (`frugal run -- COMMAND`); empty for workloads.
    public var command: [String] = []
    /// The command's arguments as the kernel gave their bytes, when they are not all UTF-8.
    public var rawArguments: [[UInt8]]?
    /// The signal the command gets as its input step, if any.
    public var inputSignal: Int32?
    /// Where a project's products are already built (the SwiftPM plugin passes it); nil: build
    /// them with `swift build -c release`.
    public var productsDirectory: String?

    public init() {}
}

/// Turns a ``SuiteSelection`` (and the project file, if any) into the runs to make: one
/// ``RunPlan`` per workload, scenario and repetition.
public enum SuitePlanner {
    /// A black-box command's scenario when none is named: run it to its end.
    public static let commandScenario = Scenario(name: "command", summary: "run the command to its end", steps: [.launch])

    /// The project file `config` names, else `frugal.yml` in the current directory when there is one.
    public static func loadProject(_ config: String?) throws -> ProjectConfig? {
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
            throw PipelineFailure.badInput(error.description)
        }
    }

    /// The plans for `selection`. A project's products are found or built first (`log` hears
    /// what is being built); built-in names are checked before that, since building may take minutes.
    public static func plans(_ selection: SuiteSelection, project: ProjectConfig?,
                             log: ((String) -> Void)? = nil) throws -> [RunPlan] {
        if !selection.command.isEmpty { return try commandPlans(selection) }
        if let project, !project.apps.isEmpty {
            // The project's apps (those named, or all); other names are built-in workloads.
            let apps = selection.workloads.isEmpty ? project.apps : selection.workloads.compactMap(project.app(named:))
            let others = selection.workloads.filter { project.app(named: $0) == nil }
            let builtIns: [RunPlan]
            do {
                builtIns = others.isEmpty ? [] : try builtInPlans(selection, names: others)
            } catch let failure as PipelineFailure {
                throw PipelineFailure.badInput(failure.message + "; \(project.file)'s apps: \(project.apps.map(\.name).joined(separator: ", "))")
            }
            return try projectPlans(selection, project: project, apps: apps, log: log) + builtIns
        }
        return try builtInPlans(selection, names: selection.workloads)
    }

    /// The plans of one shard (`shard`'s suite fingerprint filled in from all of `plans`): a
    /// workload under a scenario, with all its repetitions, is one unit, weighed by its
    /// scenario time (``ShardPlan``).
    public static func shard(_ plans: [RunPlan], _ shard: ShardInfo) -> (plans: [RunPlan], shard: ShardInfo) {
        var info = shard
        info.suite = ShardPlan.fingerprint(of: plans.map { ($0.workloadName, $0.scenario.name, $0.repetition) })
        var order: [ResultKey] = []
        var seconds: [ResultKey: Double] = [:]
        for plan in plans {
            let key = ResultKey(workload: plan.workloadName, scenario: plan.scenario.name)
            if seconds[key] == nil { order.append(key) }
            seconds[key, default: 0] += plan.scenario.waitSeconds
        }
        let assignment = ShardPlan.assign(seconds: order.map { seconds[$0] ?? 0 }, count: shard.count)
        let mine = Set(zip(order, assignment).filter { $0.1 == shard.index }.map(\.0))
        return (plans.filter { mine.contains(ResultKey(workload: $0.workloadName, scenario: $0.scenario.name)) }, info)
    }

    private static func unknownScenario(_ name: String, known: [String]) -> PipelineFailure {
        .badInput("unknown scenario '\(name)'; known scenarios: \(known.joined(separator: ", "))")
    }

    private static func commandPlans(_ selection: SuiteSelection) throws -> [RunPlan] {
        guard selection.workloads.isEmpty else {
            throw PipelineFailure.badInput("--workload does not apply to a black-box command after --")
        }
        // Without a scenario a program runs to its own end (within the timeout); an unknown
        // program gets the machine to itself (RunPlan's default demand).
        let chosen = try selection.scenarios.isEmpty ? [commandScenario]
            : selection.scenarios.map { name -> Scenario in
                guard let scenario = ScenarioCatalogue.named(name) else { throw unknownScenario(name, known: ScenarioCatalogue.all.map(\.name)) }
                return scenario
            }
        guard ScenarioRunner.executable(selection.command[0]) != nil else {
            throw PipelineFailure.badInput("command not found: \(selection.command[0]) (not an executable file, nor on PATH)")
        }
        return chosen.flatMap { scenario in
            (1...selection.repetitions).map {
                var plan = RunPlan(target: .command(selection.command), scenario: scenario, repetition: $0)
                plan.rawArguments = selection.rawArguments
                plan.programInputSignal = selection.inputSignal
                return plan
            }
        }
    }

    private static func builtInPlans(_ selection: SuiteSelection, names: [String]) throws -> [RunPlan] {
        let chosen: [WorkloadDefinition] = try names.isEmpty ? WorkloadCatalogue.defaultSuite : names.map { name in
            guard let workload = WorkloadCatalogue.named(name) else {
                throw PipelineFailure.badInput("unknown workload '\(name)'; known workloads: \(WorkloadCatalogue.all.map(\.name).joined(separator: ", "))")
            }
            return workload
        }
        let named = try selection.scenarios.map { name -> Scenario in
            guard let scenario = ScenarioCatalogue.named(name) else { throw unknownScenario(name, known: ScenarioCatalogue.all.map(\.name)) }
            return scenario
        }
        var plans: [RunPlan] = []
        for workload in chosen {
            for scenario in named.isEmpty ? workload.defaultScenarios.compactMap(ScenarioCatalogue.named) : named {
                for repetition in 1...selection.repetitions {
                    var plan = RunPlan(target: .builtIn(name: workload.name), scenario: scenario, repetition: repetition,
                                       bundleResources: workload.bundleResources, documents: workload.documents)
                    plan.demand = RunDemand.builtIn(scenario: scenario, isLight: WorkloadCatalogue.lightWorkloads.contains(workload.name),
                                                   isGated: WorkloadCatalogue.stepGatedWorkloads.contains(workload.name))
                    plans.append(plan)
                }
            }
        }
        return plans
    }

    /// The plans for the project's `apps`, each under the named scenarios or its own.
    private static func projectPlans(_ selection: SuiteSelection, project: ProjectConfig, apps: [AppConfig],
                                     log: ((String) -> Void)?) throws -> [RunPlan] {
        let named = try selection.scenarios.map { name -> Scenario in
            guard let scenario = project.scenario(named: name) else {
                throw unknownScenario(name, known: project.scenarios.map(\.name) + ScenarioCatalogue.all.map(\.name))
            }
            return scenario
        }
        let executables = try ProductBuilder(project: project, productsDirectory: selection.productsDirectory, log: log)
            .executables(for: apps)
        var plans: [RunPlan] = []
        for app in apps {
            let executable = executables[app.name] ?? ""
            let appScenarios = named.isEmpty ? app.scenarios.compactMap(project.scenario(named:)) : named
            for scenario in appScenarios.isEmpty ? [commandScenario] : appScenarios {
                // The scenario's server: over the app's, field by field.
                let server = project.scenarioServers[scenario.name].map { (app.server ?? ServerSettings()).overridden(by: $0) } ?? app.server
                for repetition in 1...selection.repetitions {
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
}
