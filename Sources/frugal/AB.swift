import ArgumentParser
import Foundation
import FrugalCore
import FrugalHarness
import FrugalPipeline
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

extension ABOptions {
    /// What both sides run, for the pipeline.
    var settings: ABSettings {
        var settings = ABSettings()
        settings.workloads = workloads
        settings.scenarios = scenarios
        settings.config = config
        settings.repetitions = repetitions
        settings.maxRepeat = maxRepeat
        settings.baseExecutable = baseExecutable
        settings.headExecutable = headExecutable
        settings.buildCommand = buildCommand
        settings.repo = repo
        settings.timeout = timeout
        settings.command = command
        settings.rawArguments = command.isEmpty ? nil : ProcessIO.rawArgumentsAfterTerminator(count: command.count).map { Array($0.dropFirst()) }
        return settings
    }

    /// The base side as `--base-*` describe it, at `revision` if given.
    func baseSide(revision: String? = nil) -> ABSideSpec {
        ABSideSpec(label: "base", productsDir: baseProductsDir, executable: baseExecutable,
                   environment: Self.environment(baseEnv), revision: revision ?? baseRev)
    }

    /// The head side as `--head-*` describe it, at `revision` if given.
    func headSide(revision: String? = nil) -> ABSideSpec {
        ABSideSpec(label: "head", productsDir: headProductsDir, executable: headExecutable,
                   environment: Self.environment(headEnv), revision: revision ?? headRev)
    }

    /// A session of `base` against `head`, its progress on standard error unless `--quiet`.
    func session(base: ABSideSpec, head: ABSideSpec, calibration: NoiseCalibration? = nil) -> ABSession {
        ABSession(options: settings, base: base, head: head, calibration: calibration, toolVersion: Frugal.version,
                  log: quiet ? nil : { ProcessIO.progress($0) })
    }
}

extension ABSession {
    /// Runs the session with the CLI's exit codes; SIGINT and SIGTERM stop it and remove its
    /// leftovers, unless `installingSignals` is false because the caller handles them (bisect).
    func runFromCommandLine(out directory: URL, installingSignals: Bool = true) throws -> Result {
        if installingSignals {
            SignalHandling.install(interruption, sandboxParent: FileManager.default.temporaryDirectory, out: directory, quiet: log == nil)
        }
        do {
            return try run()
        } catch let failure as PipelineFailure {
            throw CLIFailure(failure)
        }
    }
}

/// `frugal ab`: two builds of one app, interleaved on this host, compared.
struct AB: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ab",
        abstract: "Run two builds of an app interleaved on this host (ABBA) and compare them: regressed, unchanged or inconclusive.",
        discussion: """
        Both sides run the same workloads and scenarios, one run at a time, in ABBA order, so a \
        drift of the machine falls on both alike; a stored baseline from another day or host is not \
        needed. The sides differ by --base-/--head-products-dir, -executable, -env or -rev (a git \
        revision checked out in a worktree and built). Each value gets the comparison of frugal \
        compare with the Hodges–Lehmann shift and its 95 % interval; values still inconclusive get \
        4 more runs a side, up to --max-repeat. Exit 0 unchanged, 2 regressed, 4 inconclusive \
        (docs/COMPARISON.md).
          frugal ab --workload notes --scenario day --head-env NOTES_REGRESSION=poll
          frugal ab --base-rev origin/main --head-rev HEAD --workload notes
          frugal ab --base-executable ./old --head-executable ./new \\
            -- ./old --input data
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
        let session = ab.session(base: ab.baseSide(), head: ab.headSide(), calibration: try calibration.map(Calibrate.loadForGating))
        let directory = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try session.runFromCommandLine(out: directory)
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
