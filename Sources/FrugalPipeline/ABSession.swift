import Foundation
import FrugalCore
import FrugalHarness
import FrugalReport

/// What both sides of an A/B run, as `frugal ab`, `calibrate` and `bisect` take it.
public struct ABSettings: Sendable {
    /// Workloads on both sides: built-in, or apps of the project file.
    public var workloads: [String] = []
    /// Scenarios each workload runs under; empty: each workload's own.
    public var scenarios: [String] = []
    /// The project file; nil: `frugal.yml` if present (with a revision, the one in its worktree).
    public var config: String?
    /// Runs per side first, in ABBA order.
    public var repetitions = 6
    /// Most runs per side: values still inconclusive get 4 more a round, up to this.
    public var maxRepeat = 14
    /// The executables the sides replace the program with, if named (they name the workload).
    public var baseExecutable: String?
    public var headExecutable: String?
    /// How a revision is built (`/bin/sh -c` in its worktree); nil: `swift build -c release`.
    public var buildCommand: String?
    /// The git repository revisions come from.
    public var repo = "."
    /// Longest a black-box command may run, seconds.
    public var timeout = 60.0
    /// A program run as a black box on both sides, and its arguments' bytes as the kernel gave them.
    public var command: [String] = []
    public var rawArguments: [[UInt8]]?

    public init() {}
}

/// One side as the command line describes it.
public struct ABSideSpec: Sendable {
    public var label: String
    public var productsDir: String?
    public var executable: String?
    public var environment: [String: String]
    public var revision: String?

    public init(label: String, productsDir: String?, executable: String?, environment: [String: String], revision: String?) {
        self.label = label
        self.productsDir = productsDir
        self.executable = executable
        self.environment = environment
        self.revision = revision
    }
}

/// An A/B session: both sides' plans, the runs, the reports and the comparison. The caller
/// handles SIGINT and SIGTERM by interrupting ``interruption``.
public struct ABSession {
    public var options: ABSettings
    public var base: ABSideSpec
    public var head: ABSideSpec
    /// Which entries decide whether more runs are needed (bisect: the one value it follows).
    public var focus: (ComparisonEntry) -> Bool = { $0.minimumEffect.gating }
    public var calibration: NoiseCalibration?
    public var interruption = SuiteInterruption()
    /// The version the reports name.
    public var toolVersion: String
    /// Hears progress (revisions built, runs finished); nil: quiet.
    public var log: ((String) -> Void)?

    public init(options: ABSettings, base: ABSideSpec, head: ABSideSpec, calibration: NoiseCalibration? = nil,
                toolVersion: String, log: ((String) -> Void)?) {
        self.options = options
        self.base = base
        self.head = head
        self.calibration = calibration
        self.toolVersion = toolVersion
        self.log = log
    }

    /// Both sides' reports (the head's with its comparison) and the adaptive rounds run.
    public struct Result {
        public var base: Report
        public var head: Report
        public var rounds: [[Int]]
    }

    /// Builds what must be built, runs both sides interleaved and compares them.
    public func run() throws -> Result {
        let builder = GitRevisionBuilder(repository: URL(fileURLWithPath: options.repo).standardizedFileURL,
                                         worktrees: URL(fileURLWithPath: options.repo).appendingPathComponent(".frugal/worktrees").standardizedFileURL,
                                         buildCommand: options.buildCommand)
        let (basePlans, baseRoot) = try plans(base, builder: builder)
        let (headPlans, headRoot) = try plans(head, builder: builder)
        guard basePlans.count == headPlans.count, !basePlans.isEmpty else {
            throw PipelineFailure.badInput("the two sides run different workloads (\(basePlans.count) vs \(headPlans.count) workload · scenario pairs)")
        }
        let host = WorkloadHostLocator.locate()
        var harness = HarnessOptions(workloadHost: host ?? WorkloadHostLocator.executableName, commandTimeout: options.timeout)
        harness.interruption = interruption
        if basePlans.contains(where: { if case .builtIn = $0.target { return true } else { return false } }), host == nil {
            throw PipelineFailure.harness("cannot find \(WorkloadHostLocator.executableName) beside frugal, on PATH or in FRUGAL_WORKLOAD_HOST")
        }
        var baseOptions = harness, headOptions = harness
        baseOptions.environment = base.environment
        headOptions.environment = head.environment
        // A revision's built-in workloads run in its own workload host, when it built one.
        for (root, index) in [(baseRoot, 0), (headRoot, 1)] {
            guard let root, let own = Self.workloadHost(in: root) else { continue }
            if index == 0 { baseOptions.workloadHost = own } else { headOptions.workloadHost = own }
        }
        let runner = ABRunner(base: ABSide(label: "base", plans: basePlans, options: baseOptions),
                              head: ABSide(label: "head", plans: headPlans, options: headOptions))
        let started = InternetDateTime.string(from: Date())
        let log = self.log
        let outcome: ABRunner.Outcome
        do {
            let ambiguous: ([RunRecord], [RunRecord]) -> [Int] = { baseRecords, headRecords in
                self.ambiguousPlans(basePlans, baseRecords, headRecords, generatedAt: started)
            }
            let progress: (ABRunner.Progress) -> Void = { progress in
                guard let log, case .finished(let side, let record, let index, let count) = progress else { return }
                let line: String = "[\(index)/\(count)] \(side) · \(record.workload) · \(record.scenario) · run \(record.repetition): \(record.outcome.rawValue)"
                log(line)
            }
            outcome = try runner.runAdaptive(initial: options.repetitions, step: 4, maximum: options.maxRepeat,
                                             ambiguous: ambiguous, progress: progress)
        } catch let failure as SuiteFailure {
            if let mismatch = failure.underlying as? ProtocolMismatch { throw PipelineFailure.badInput(mismatch.description) }
            throw PipelineFailure.harness("\(failure.underlying)")
        }
        if let signal = interruption.signal {
            throw PipelineFailure(kind: .interrupted(signal: signal), message: "the A/B was stopped before its comparison")
        }
        let reports = compare(outcome.base, outcome.head, generatedAt: started)
        return Result(base: reports.base, head: reports.head, rounds: outcome.rounds)
    }

    /// The plans whose workload · scenario still has an inconclusive value this session follows.
    func ambiguousPlans(_ plans: [RunPlan], _ baseRecords: [RunRecord], _ headRecords: [RunRecord], generatedAt: String) -> [Int] {
        let comparison = compare(baseRecords, headRecords, generatedAt: generatedAt).head.comparison
        let entries: [ComparisonEntry] = (comparison?.results ?? []).flatMap { $0.audits + $0.metrics }
        var keys = Set<ResultKey>(), decided = Set<ResultKey>()
        for entry in entries where focus(entry) {
            let key = ResultKey(workload: entry.workload, scenario: entry.scenario)
            if entry.verdict == .inconclusive || entry.verdict == .insufficientData { keys.insert(key) }
            // A workload that already regressed fails whatever more runs show elsewhere.
            if entry.verdict == .regressed && entry.minimumEffect.gating { decided.insert(key) }
        }
        keys.subtract(decided)
        let more = plans.indices.filter { keys.contains(ResultKey(workload: plans[$0].workloadName, scenario: plans[$0].scenario.name)) }
        if !more.isEmpty, let log {
            log("frugal ab: \(keys.count) workload · scenario still inconclusive: 4 more runs a side")
        }
        return more
    }

    /// Both sides' reports, the head with its comparison against the base.
    func compare(_ baseRecords: [RunRecord], _ headRecords: [RunRecord], generatedAt: String) -> (base: Report, head: Report) {
        var environment = EnvironmentSurvey.survey().environmentInfo
        environment.notes.append("A/B on one host: base and head interleaved in ABBA order, one run at a time")
        let tool = ToolInfo(version: toolVersion)
        let baseReport = ReportBuilder.build(records: baseRecords, tool: tool, generatedAt: generatedAt, environment: environment)
        var headReport = ReportBuilder.build(records: headRecords, tool: tool, generatedAt: generatedAt, environment: environment)
        headReport.comparison = ReportComparator.compare(base: baseReport, head: headReport, baseline: "A/B base (\(describe(base)))",
                                                         calibration: calibration, sameSession: true)
        return (baseReport, headReport)
    }

    /// A side in words: its revision, products, executable and environment.
    public func describe(_ side: ABSideSpec) -> String {
        var parts: [String] = []
        if let revision = side.revision { parts.append("rev \(revision)") }
        if let dir = side.productsDir { parts.append("products \(dir)") }
        if let executable = side.executable { parts.append(executable) }
        parts += side.environment.keys.sorted().map { "\($0)=\(side.environment[$0] ?? "")" }
        return parts.isEmpty ? "as built" : parts.joined(separator: ", ")
    }

    /// `frugal-workload-host` as a revision's build left it (release first), if it did.
    static func workloadHost(in root: URL) -> String? {
        ["release", "debug"].map { root.appendingPathComponent(".build/\($0)/\(WorkloadHostLocator.executableName)").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The plans of one side (one repetition each; the runner numbers them), and the worktree of
    /// its revision, if it has one.
    func plans(_ side: ABSideSpec, builder: GitRevisionBuilder) throws -> ([RunPlan], URL?) {
        var root: URL?
        if let revision = side.revision {
            do {
                root = try builder.build(revision, log: { log?($0) }).directory
            } catch let failure as GitRevisionBuilder.Failure {
                throw PipelineFailure.badInput(failure.description)
            }
        }
        // With a revision, relative paths point into its worktree.
        func resolve(_ path: String?) -> String? {
            guard let path, let root, !path.hasPrefix("/") else { return path }
            return root.appendingPathComponent(path).path
        }
        var selection = SuiteSelection()
        selection.workloads = options.workloads
        selection.scenarios = options.scenarios
        let fileManager = FileManager.default
        let defaultConfig = root.map { $0.appendingPathComponent("frugal.yml").path } ?? "frugal.yml"
        let config = resolve(options.config) ?? (fileManager.fileExists(atPath: defaultConfig) ? defaultConfig : nil)
        selection.productsDirectory = resolve(side.productsDir)
        var command = options.command
        if let executable = resolve(side.executable) {
            if !command.isEmpty { command[0] = executable } else if config == nil { command = [executable] }
        } else if let program = command.first, let root, !program.hasPrefix("/"),
                  program.contains("/") || fileManager.fileExists(atPath: root.appendingPathComponent(program).path) {
            // A program of the repository: each side runs its own revision's.
            command[0] = root.appendingPathComponent(program).path
        }
        selection.command = command
        if command.count == options.command.count { selection.rawArguments = options.rawArguments }
        // The sides' products are built quietly: the session says which revision it builds.
        var plans = try SuitePlanner.plans(selection, project: try SuitePlanner.loadProject(config))
        let shared = options.command.isEmpty ? (options.baseExecutable ?? options.headExecutable) : options.command.joined(separator: " ")
        for index in plans.indices {
            switch plans[index].target {
            case .app(var app):
                if let executable = resolve(side.executable) { app.executable = executable }
                plans[index].target = .app(app)
            case .command:
                // Both sides' programs are one workload, whatever their paths.
                if plans[index].programName == nil { plans[index].programName = shared ?? options.workloads.first ?? "program" }
            case .builtIn:
                break
            }
            // A/B runs one at a time: the machine is the runs' alone.
            plans[index].demand = .exclusive("A/B: one run at a time")
        }
        return (plans, root)
    }
}
