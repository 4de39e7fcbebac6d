import ArgumentParser
import Foundation
import FrugalCore
import FrugalHarness
import FrugalReport

/// What both sides of an A/B run and how each differs: shared by `frugal ab`, `frugal calibrate`
/// and `frugal bisect`.
struct ABOptions: ParsableArguments {
    @Option(name: .customLong("workload"), help: ArgumentHelp("A workload to run on both sides (repeatable): built-in, or an app of frugal.yml.", valueName: "name"))
    var workloads: [String] = []

    @Option(name: .customLong("scenario"), help: ArgumentHelp("A scenario to run each workload under (repeatable; default: each workload's own).", valueName: "name"))
    var scenarios: [String] = []

    @Option(help: ArgumentHelp("The project file (default: ./frugal.yml if present; with a revision, the one in its worktree).", valueName: "file"))
    var config: String?

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Runs per side first, in ABBA order.", valueName: "n"))
    var repetitions = 6

    @Option(help: ArgumentHelp("Most runs per side: values still inconclusive get 4 more runs a round, up to this.", valueName: "n"))
    var maxRepeat = 14

    @Option(help: ArgumentHelp("Where the base side's products are built.", valueName: "dir"))
    var baseProductsDir: String?
    @Option(help: ArgumentHelp("Where the head side's products are built.", valueName: "dir"))
    var headProductsDir: String?
    @Option(help: ArgumentHelp("The base side's executable: replaces the app's, or the program of the command after --.", valueName: "path"))
    var baseExecutable: String?
    @Option(help: ArgumentHelp("The head side's executable.", valueName: "path"))
    var headExecutable: String?
    @Option(help: ArgumentHelp("An environment variable of the base side's app (repeatable).", valueName: "NAME=VALUE"))
    var baseEnv: [String] = []
    @Option(help: ArgumentHelp("An environment variable of the head side's app (repeatable), e.g. a regression switch.", valueName: "NAME=VALUE"))
    var headEnv: [String] = []
    @Option(help: ArgumentHelp("A git revision for the base side: checked out in a worktree of its own and built (--build-command); relative paths then point into it.", valueName: "rev"))
    var baseRev: String?
    @Option(help: ArgumentHelp("A git revision for the head side.", valueName: "rev"))
    var headRev: String?
    @Option(help: ArgumentHelp("How a revision is built, run with /bin/sh -c in its worktree (default: swift build -c release).", valueName: "command"))
    var buildCommand: String?
    @Option(help: ArgumentHelp("The git repository revisions come from.", valueName: "dir"))
    var repo = "."

    @Option(help: ArgumentHelp("Longest a black-box command may run, seconds.", valueName: "seconds"))
    var timeout = 60.0

    @Flag(help: "No progress on standard error.")
    var quiet = false

    @Argument(parsing: .postTerminator, help: ArgumentHelp("A command to run as a black box on both sides, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        guard (5...20).contains(repetitions) else { throw ValidationError("--repeat must be between 5 and 20 (the rank test needs 5 a side), not \(repetitions)") }
        guard (repetitions...40).contains(maxRepeat) else { throw ValidationError("--max-repeat must be between --repeat and 40, not \(maxRepeat)") }
        guard timeout.isFinite, timeout > 0, timeout <= Run.maxTimeout else { throw ValidationError("--timeout must be above 0 and at most a day") }
        for variable in baseEnv + headEnv where !variable.contains("=") || variable.hasPrefix("=") {
            throw ValidationError("--base-env/--head-env take NAME=VALUE, not '\(variable)'")
        }
    }

    static func environment(_ pairs: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return result
    }
}

/// One side as the command line describes it.
struct ABSideSpec {
    var label: String
    var productsDir: String?
    var executable: String?
    var environment: [String: String]
    var revision: String?
}

/// An A/B session: both sides' plans, the runs, the reports and the comparison.
struct ABSession {
    var options: ABOptions
    var base: ABSideSpec
    var head: ABSideSpec
    /// Which entries decide whether more runs are needed (bisect: the one value it follows).
    var focus: (ComparisonEntry) -> Bool = { $0.minimumEffect.gating }
    var calibration: NoiseCalibration?
    var interruption = SuiteInterruption()
    /// False when the caller already handles SIGINT and SIGTERM for `interruption` (bisect's steps).
    var installSignals = true

    struct Result {
        var base: Report
        var head: Report
        var rounds: [[Int]]
    }

    /// Builds what must be built, runs both sides interleaved and compares them.
    func run(outForSignals: URL) throws -> Result {
        let builder = GitRevisionBuilder(repository: URL(fileURLWithPath: options.repo).standardizedFileURL,
                                         worktrees: URL(fileURLWithPath: options.repo).appendingPathComponent(".frugal/worktrees").standardizedFileURL,
                                         buildCommand: options.buildCommand)
        let (basePlans, baseRoot) = try plans(base, builder: builder)
        let (headPlans, headRoot) = try plans(head, builder: builder)
        guard basePlans.count == headPlans.count, !basePlans.isEmpty else {
            throw CLIFailure.badInput("the two sides run different workloads (\(basePlans.count) vs \(headPlans.count) workload · scenario pairs)")
        }
        let host = WorkloadHostLocator.locate()
        var harness = HarnessOptions(workloadHost: host ?? WorkloadHostLocator.executableName, commandTimeout: options.timeout)
        harness.interruption = interruption
        if basePlans.contains(where: { if case .builtIn = $0.target { return true } else { return false } }), host == nil {
            throw CLIFailure.harness("cannot find \(WorkloadHostLocator.executableName) beside frugal, on PATH or in FRUGAL_WORKLOAD_HOST")
        }
        var baseOptions = harness, headOptions = harness
        baseOptions.environment = base.environment
        headOptions.environment = head.environment
        // A revision's built-in workloads run in its own workload host, when it built one.
        for (root, index) in [(baseRoot, 0), (headRoot, 1)] {
            guard let root, let own = Self.workloadHost(in: root) else { continue }
            if index == 0 { baseOptions.workloadHost = own } else { headOptions.workloadHost = own }
        }
        if installSignals {
            SignalHandling.install(interruption, sandboxParent: harness.sandboxParent, out: outForSignals, quiet: options.quiet)
        }
        let runner = ABRunner(base: ABSide(label: "base", plans: basePlans, options: baseOptions),
                              head: ABSide(label: "head", plans: headPlans, options: headOptions))
        let started = ISO8601DateFormatter().string(from: Date())
        let quiet = options.quiet
        let outcome: ABRunner.Outcome
        do {
            let ambiguous: ([RunRecord], [RunRecord]) -> [Int] = { baseRecords, headRecords in
                self.ambiguousPlans(basePlans, baseRecords, headRecords, generatedAt: started)
            }
            let progress: (ABRunner.Progress) -> Void = { progress in
                guard !quiet, case .finished(let side, let record, let index, let count) = progress else { return }
                let line: String = "[\(index)/\(count)] \(side) · \(record.workload) · \(record.scenario) · run \(record.repetition): \(record.outcome.rawValue)"
                ProcessIO.progress(line)
            }
            outcome = try runner.runAdaptive(initial: options.repetitions, step: 4, maximum: options.maxRepeat,
                                             ambiguous: ambiguous, progress: progress)
        } catch let failure as SuiteFailure {
            if let mismatch = failure.underlying as? ProtocolMismatch { throw CLIFailure.badInput(mismatch.description) }
            throw CLIFailure.harness("\(failure.underlying)")
        }
        if let signal = interruption.signal {
            throw Run.interruptedFailure(signal, detail: "the A/B was stopped before its comparison")
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
        if !more.isEmpty && !options.quiet {
            ProcessIO.progress("frugal ab: \(keys.count) workload · scenario still inconclusive: 4 more runs a side")
        }
        return more
    }

    /// Both sides' reports, the head with its comparison against the base.
    func compare(_ baseRecords: [RunRecord], _ headRecords: [RunRecord], generatedAt: String) -> (base: Report, head: Report) {
        var environment = EnvironmentSurvey.survey().environmentInfo
        environment.notes.append("A/B on one host: base and head interleaved in ABBA order, one run at a time")
        let tool = ToolInfo(version: Frugal.version)
        let baseReport = ReportBuilder.build(records: baseRecords, tool: tool, generatedAt: generatedAt, environment: environment)
        var headReport = ReportBuilder.build(records: headRecords, tool: tool, generatedAt: generatedAt, environment: environment)
        headReport.comparison = ReportComparator.compare(base: baseReport, head: headReport, baseline: "A/B base (\(describe(base)))",
                                                         calibration: calibration, sameSession: true)
        return (baseReport, headReport)
    }

    func describe(_ side: ABSideSpec) -> String {
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
                root = try builder.build(revision, log: { if !options.quiet { ProcessIO.progress($0) } }).directory
            } catch let failure as GitRevisionBuilder.Failure {
                throw CLIFailure.badInput(failure.description)
            }
        }
        // With a revision, relative paths point into its worktree.
        func resolve(_ path: String?) -> String? {
            guard let path, let root, !path.hasPrefix("/") else { return path }
            return root.appendingPathComponent(path).path
        }
        var arguments = options.workloads.flatMap { ["--workload", $0] } + options.scenarios.flatMap { ["--scenario", $0] }
        arguments += ["--repeat", "1", "--timeout", String(options.timeout), "--quiet", "--no-history"]
        let fileManager = FileManager.default
        let defaultConfig = root.map { $0.appendingPathComponent("frugal.yml").path } ?? "frugal.yml"
        let config = resolve(options.config) ?? (fileManager.fileExists(atPath: defaultConfig) ? defaultConfig : nil)
        if let config { arguments += ["--config", config] }
        if let products = resolve(side.productsDir) { arguments += ["--products-dir", products] }
        var command = options.command
        if let executable = resolve(side.executable) {
            if !command.isEmpty { command[0] = executable } else if config == nil { command = [executable] }
        } else if let program = command.first, let root, !program.hasPrefix("/"),
                  program.contains("/") || fileManager.fileExists(atPath: root.appendingPathComponent(program).path) {
            // A program of the repository: each side runs its own revision's.
            command[0] = root.appendingPathComponent(program).path
        }
        if !command.isEmpty { arguments += ["--"] + command }
        let run: Run
        do {
            run = try Run.parse(arguments)
        } catch {
            throw CLIFailure.badInput(Run.message(for: error))
        }
        var plans = try run.makePlans(project: try run.loadProject())
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

/// `frugal ab`: two builds of one app, interleaved on this host, compared.
struct AB: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ab",
        abstract: "Run two builds of an app interleaved on this host (ABBA) and compare them: regressed, unchanged or inconclusive.",
        discussion: """
        Both sides run the same workloads and scenarios, one run at a time, in ABBA order, so a
        drift of the machine falls on both alike; a stored baseline from another day or host is not
        needed. The sides differ by --base-/--head-products-dir, -executable, -env or -rev (a git
        revision checked out in a worktree and built). Each value gets the comparison of frugal
        compare with the Hodges–Lehmann shift and its 95 % interval; values still inconclusive get
        4 more runs a side, up to --max-repeat. Exit 0 unchanged, 2 regressed, 4 inconclusive
        (docs/COMPARISON.md).
          frugal ab --workload notes --scenario day --head-env NOTES_REGRESSION=poll
          frugal ab --base-rev origin/main --head-rev HEAD --workload notes
          frugal ab --base-executable ./old --head-executable ./new -- ./old --input data
        """)

    @OptionGroup var ab: ABOptions

    @Option(help: ArgumentHelp("Directory for base.json, head.json (with the comparison) and summary.md.", valueName: "dir"))
    var out = "Reports/ab"

    @Option(help: ArgumentHelp("A calibration from frugal calibrate: thresholds are at least 3 × its noise.", valueName: "file"))
    var calibration: String?

    @OptionGroup var exports: ExportOptions

    @Flag(help: "Print the head report with its comparison as JSON on standard output instead of the listing.")
    var jsonStdout = false

    func run() throws {
        try exports.check()
        let session = ABSession(options: ab,
                                base: ABSideSpec(label: "base", productsDir: ab.baseProductsDir, executable: ab.baseExecutable,
                                                 environment: ABOptions.environment(ab.baseEnv), revision: ab.baseRev),
                                head: ABSideSpec(label: "head", productsDir: ab.headProductsDir, executable: ab.headExecutable,
                                                 environment: ABOptions.environment(ab.headEnv), revision: ab.headRev),
                                calibration: try calibration.map(Calibrate.loadForGating))
        let directory = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try session.run(outForSignals: directory)
        try ReportInput.writeReport(result.base, to: directory.appendingPathComponent("base.json").path)
        try ReportInput.writeReport(result.head, to: directory.appendingPathComponent("head.json").path)
        try ReportInput.write(MarkdownSummaryRenderer.render(result.head), to: directory.appendingPathComponent("summary.md").path)
        try exports.write(result.head)
        guard let comparison = result.head.comparison else { throw CLIFailure.harness("no comparison was made") }
        if let nothing = ComparisonTextRenderer.nothingCompared(comparison) { throw CLIFailure.badInput(nothing) }
        if jsonStdout {
            try CIOutput.finish(result.head, jsonStdout: true, annotations: false)
        } else {
            print(ComparisonTextRenderer.render(comparison), terminator: "")
            if !result.rounds.isEmpty {
                print("adaptive: \(result.rounds.count) round\(result.rounds.count == 1 ? "" : "s") of 4 more runs a side for \(result.rounds.map(\.count).reduce(0, +)) inconclusive workload · scenario pairs")
            }
            if !ab.quiet { ProcessIO.progress("frugal ab: wrote \(directory.path)/base.json, head.json, summary.md") }
        }
        try CIOutput.verdictExit(comparison)
    }
}
