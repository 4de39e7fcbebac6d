import ArgumentParser
import Foundation
import FrugalConfig
import FrugalCore
import FrugalHarness
import FrugalHistory
import FrugalPipeline
import FrugalReport
import FrugalWorkloads

/// `frugal run`: runs workloads under scenarios and writes the report.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run workloads under scenarios and write a scored report.",
        discussion: """
        With no arguments, runs every built-in workload under its default scenarios and writes \
        Reports/latest/report.json, report.html and summary.md. Progress goes to standard error.

        After --, runs any program as a black box (process-level metrics only):
          frugal run -- sleep 2

        With a frugal.yml in the current directory (or --config FILE), runs the apps it lists under \
        their scenarios; --workload and --scenario also take its names. See docs/YOUR-APP.md.
        """)

    @Option(name: .customLong("workload"), help: ArgumentHelp("A built-in workload to run (repeatable; see 'frugal list').", valueName: "name"))
    var workloads: [String] = []

    @Option(name: .customLong("scenario"), help: ArgumentHelp("A scenario to run each workload under (repeatable; default: each workload's own). With a command after --, the program's scenario (e.g. program-lifecycle; default: run it to its end).", valueName: "name"))
    var scenarios: [String] = []

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Runs per workload and scenario; aggregated by median. Comparing against a baseline needs 5 or more (use 5 in CI).", valueName: "n"))
    var repetitions = 1

    @Option(help: ArgumentHelp("Directory for report.json, report.html and summary.md.", valueName: "dir"))
    var out = "Reports/latest"

    @Option(help: ArgumentHelp("Longest a black-box command may run, seconds.", valueName: "seconds"))
    var timeout = 60.0

    @Option(help: ArgumentHelp("Run exactly n workloads side by side, whatever they do. Without it, runs are scheduled by what they use: workloads that sleep most of the time run together, one launch or timed step (input, terminate, resume) at a time machine-wide, while CPU-bound, busy-between-steps and memory-pressure runs get the machine to themselves. --jobs 1 measures each workload alone.", valueName: "n"))
    var jobs: Int?

    @Flag(help: "Keep each run's app sandbox (Documents, Library, tmp, Bundle) in the temporary directory for inspection.")
    var keepSandboxes = false
    @Option(name: .customLong("network"), help: ArgumentHelp("The link each run's shaping proxy starts on: \(NetworkProfile.builtIns.map(\.name).joined(separator: ", ")).", valueName: "profile"))
    var networkProfile = NetworkProfile.lte.name

    @Option(help: ArgumentHelp("The device radio whose model prices each run's traffic: lte (Huang et al. 2012), 3g or wifi (ARO).", valueName: "radio"))
    var radio = "lte"

    @Flag(inversion: .prefixedNo, help: ArgumentHelp("Write each run's Perfetto trace into --out's traces/ (default: each run whose trace is within 50 MB per 5 minutes of run; --trace writes every one, --no-trace none). Open it in https://ui.perfetto.dev."))
    var trace: Bool?

    @Option(name: .customLong("rules"), help: ArgumentHelp("A rule pack to judge every run by beside the guide's audits, reported apart and not scored: \(Self.rulePacks.joined(separator: ", ")) (see 'frugal rules').", valueName: "pack"))
    var rulePacks: [String] = []

    /// The packs `--rules` takes (the guide's audits always apply).
    static let rulePacks = [AppleLimits.packName]

    /// The bounds of `--repeat`, `--timeout` and `--jobs` (docs/robustness.md, "Limits on input").
    static let maxRepetitions = 1000
    static let maxTimeout = 86_400.0
    static let maxJobs = 64

    /// `--radio`'s names.
    static let radios: [String: RadioProfile.Technology] = ["lte": .lte, "3g": .threeG, "wifi": .wifi]

    @Flag(help: "No progress on standard error and no summary on standard output.")
    var quiet = false

    @Option(help: ArgumentHelp("A baseline report to compare against; exit 2 on a significant regression.", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("The project file (default: ./frugal.yml if present): apps, scenarios, and assertions in Lighthouse CI's form (exit 2 when an error-level one fails).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Where the products frugal.yml names are already built (the SwiftPM plugin passes it); without it they are built with swift build -c release.", valueName: "dir"))
    var productsDir: String?

    @Option(help: ArgumentHelp("The history database each run is appended to.", valueName: "path"))
    var history = HistoryStore.defaultPath

    @Flag(help: "Do not record this run in the history database.")
    var noHistory = false

    @Option(help: ArgumentHelp("Run only slice I of the suite split N ways (1-based), balanced by expected duration; join the shards' reports with 'frugal merge'.", valueName: "I/N"))
    var shard: String?

    @Flag(help: "Print the report JSON on standard output instead of the summary table.")
    var jsonStdout = false

    @Flag(help: "Print GitHub Actions annotations (::error ...) on standard output.")
    var githubAnnotations = false

    @Option(help: ArgumentHelp("The signal a black-box program gets as its memory warning (a memoryWarning step, or the kernel's pressure): a name (USR1, SIGUSR2) or a number. Default: none, and the warning audits are not applicable.", valueName: "signal"))
    var memoryWarningSignal: String?

    @Option(help: ArgumentHelp("The signal a black-box command gets as its input (an input step): a name (USR2) or a number. Default: none, and input steps are not applicable to it. frugal.yml sets it per program (inputSignal).", valueName: "signal"))
    var inputSignal: String?

    @Option(help: ArgumentHelp("A directory of fixtures the run's origin answers from instead of its synthetic routes (request path → file; see docs/NETWORK.md). frugal.yml's server: of an app or scenario wins.", valueName: "dir"))
    var fixtures: String?

    @Option(help: ArgumentHelp("A HAR 1.2 file whose entries the run's origin replays (tried before --fixtures).", valueName: "file"))
    var har: String?

    @Option(help: ArgumentHelp("How long replayed responses take at the server: recorded (the HAR's timings.wait) or milliseconds (40ms). The link's shaping applies on top.", valueName: "timing"))
    var serverTiming: String = "recorded"

    /// Set by `frugal record`: forward every request to this server and write the exchanges here.
    @Option(help: .private)
    var recordUpstream: String?
    @Option(help: .private)
    var recordTo: String?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("A command to run as a black box, after --.", valueName: "command"))
    var command: [String] = []

    /// What every run's origin answers with, from --fixtures, --har, --server-timing and `frugal record`.
    func serverSettings() throws -> ServerSettings {
        guard let timing = ServerSettings.Timing.parse(serverTiming) else {
            throw CLIFailure.badInput("--server-timing must be 'recorded' or a number of milliseconds such as 40ms, not '\(serverTiming)'")
        }
        var settings = ServerSettings(timing: timing, upstream: recordUpstream, recordTo: recordTo)
        if let fixtures {
            let path = URL(fileURLWithPath: fixtures).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIFailure.badInput("--fixtures \(fixtures): not a directory")
            }
            settings.fixtures = path
        }
        if let har {
            let path = URL(fileURLWithPath: har).standardizedFileURL.path
            do {
                _ = try HARResponder(path: path, timing: timing)
            } catch {
                throw CLIFailure.badInput("--har \(error)")
            }
            settings.har = path
        }
        return settings
    }

    func validate() throws {
        // Bounds before any conversion: ∞ or 1e300 seconds would trap turning into nanoseconds, and
        // a billion repetitions would try to allocate their plans at once.
        guard (1...Self.maxRepetitions).contains(repetitions) else {
            throw ValidationError("--repeat must be between 1 and \(Self.maxRepetitions), not \(repetitions)")
        }
        guard timeout.isFinite, timeout > 0, timeout <= Self.maxTimeout else {
            throw ValidationError("--timeout must be a number of seconds above 0 and at most \(Int(Self.maxTimeout)) (a day), not \(timeout)")
        }
        if let jobs, !(1...Self.maxJobs).contains(jobs) { throw ValidationError("--jobs must be between 1 and \(Self.maxJobs), not \(jobs)") }
        guard NetworkProfile.named(networkProfile) != nil else {
            throw ValidationError("unknown --network profile '\(networkProfile)'; known: \(NetworkProfile.builtIns.map(\.name).joined(separator: ", "))")
        }
        guard Self.radios[radio] != nil else { throw ValidationError("unknown --radio '\(radio)'; known: lte, 3g, wifi") }
        for pack in rulePacks where !Self.rulePacks.contains(pack) {
            throw ValidationError("unknown --rules pack '\(pack)'; known: \(Self.rulePacks.joined(separator: ", ")) (the guide's audits always apply)")
        }
        if let shard, ShardPlan.parse(shard) == nil {
            throw ValidationError("--shard must be I/N with 1 ≤ I ≤ N ≤ \(ShardPlan.maximumShards) (as 2/4), not '\(shard)'")
        }
    }

    /// What `--workload`, `--scenario`, `--repeat`, `--products-dir` and the command after `--` select.
    func selection() throws -> SuiteSelection {
        var selection = SuiteSelection()
        selection.workloads = workloads
        selection.scenarios = scenarios
        selection.repetitions = repetitions
        selection.command = command
        selection.productsDirectory = productsDir
        if !command.isEmpty {
            selection.rawArguments = ProcessIO.rawArgumentsAfterTerminator(count: command.count).map { Array($0.dropFirst()) }
            selection.inputSignal = try inputSignal.map { text -> Int32 in
                guard let number = ProgramSignal.number(text) else {
                    throw CLIFailure.badInput("--input-signal: '\(text)' is not a signal a program can catch (use a name such as USR2, or a number; not KILL or STOP)")
                }
                return number
            }
        }
        return selection
    }

    /// The runs the arguments (and the project file) select, built products included.
    func makePlans(project: ProjectConfig?) throws -> [RunPlan] {
        let quiet = self.quiet
        return try SuitePlanner.plans(selection(), project: project, log: quiet ? nil : { ProcessIO.progress($0) })
    }

    func run() throws {
        // --out first: building a project's products or running the suite may take minutes.
        let out = try ReportInput.resolveOut(self.out)
        let directory = URL(fileURLWithPath: out)
        let outLock = try ReportInput.lockOut(out)
        // Held until the report is written (and released by the kernel however frugal ends).
        defer { withExtendedLifetime(outLock) {} }
        // Inputs are checked before minutes of running, so a typo fails at once.
        if !noHistory { try Self.checkHistory(history) }
        try Self.checkMachineGate()
        let project = try loadProject()
        var plans = try makePlans(project: project)
        var shardInfo: ShardInfo?
        if let shard = shard.flatMap(ShardPlan.parse) { (plans, shardInfo) = SuitePlanner.shard(plans, shard) }
        let baselineReport = try baseline.map(ReportInput.load)
        var options = HarnessOptions(workloadHost: try SuitePipeline.workloadHost(for: plans), commandTimeout: timeout, keepSandboxes: keepSandboxes,
                                     networkProfile: NetworkProfile.named(networkProfile) ?? .lte, radio: Self.radios[radio] ?? .lte)
        options.programMemoryWarningSignal = try memoryWarningSignal.map(Self.signalNumber)
        options.server = try serverSettings()
        SignalHandling.install(options.interruption, sandboxParent: options.sandboxParent, out: directory, quiet: quiet)
        var request = SuiteRequest(plans: plans, options: options, out: directory, toolVersion: Frugal.version)
        request.jobs = jobs
        request.shard = shardInfo
        request.assertions = project?.assertions
        request.rulePacks = rulePacks
        request.trace = trace
        request.showsFinishedRuns = !quiet
        if let baselineReport, let baseline { request.baseline = (baselineReport, baseline) }
        if !noHistory {
            request.history = history
            request.commit = ReportInput.gitCommit()
        }
        // Where the suite is and how long is left, as the schedule plays out (Run+Progress.swift).
        let tracker = SuiteProgress(plans: plans, jobs: jobs)
        if !quiet {
            let seconds = plans.reduce(0.0) { $0 + $1.scenario.waitSeconds }
            ProcessIO.progress("frugal: \(plans.count) run\(plans.count == 1 ? "" : "s")\(shardInfo.map { " (shard \($0.index)/\($0.count))" } ?? ""), \(DisplayFormat.integer(seconds)) s of scenarios, about \(SuiteProgress.clock(tracker.expectedSeconds)) as scheduled")
            tracker.begin()
        }
        let quiet = self.quiet
        let outcome: SuiteOutcome
        do {
            outcome = try SuitePipeline.run(request) { event in
                Self.show(event, on: tracker, quiet: quiet)
            }
        } catch let failure as PipelineFailure {
            tracker.end()
            throw CLIFailure(failure)
        }
        report(outcome, directory: directory)
        let runs = outcome.runCount
        if let harnessFailure = outcome.harnessFailure {
            throw CLIFailure.harness("\(harnessFailure) (the report holds the \(runs) runs that finished)")
        }
        if let interrupted = outcome.interrupted {
            throw Self.interruptedFailure(interrupted, detail: "the report in \(out) holds the \(runs) runs that finished or were going on")
        }
        // A signal that came while the set was written: the set is whole (it is written as one),
        // but the user asked to stop, and a script waiting on the exit status must hear it. Read
        // again here and once more before exiting, with the delivery itself
        // (`SignalHandling.delivered`): the source's handler runs on a thread of its own, and on
        // a loaded machine it recorded a signal that landed in the last rename only after the
        // pipeline had returned (seen beside two CPU hogs).
        let lateSignal = { outcome.lateSignal ?? options.interruption.signal ?? SignalHandling.delivered() }
        let lateDetail = "while the report was written; the report in \(out) is complete, with all \(runs) runs"
        if let late = lateSignal() { throw Self.interruptedFailure(late, detail: lateDetail) }
        let report = outcome.report
        if !quiet && !jsonStdout {
            printSummary(report)
            printAppleLimits(report)
            if let comparison = report.comparison { print(ComparisonTextRenderer.render(comparison), terminator: "") }
        }
        if let failure = outcome.historyFailure {
            // The report is written; the run is not in the history. CI must hear of it.
            try? CIOutput.finish(report, jsonStdout: jsonStdout, annotations: githubAnnotations)
            throw CLIFailure.harness("the report was written, but the run could not be recorded in \(self.history): \(failure)")
        }
        if let late = lateSignal() { throw Self.interruptedFailure(late, detail: lateDetail) }
        try CIOutput.finish(report, jsonStdout: jsonStdout, annotations: githubAnnotations)
    }

    /// One event of the pipeline on the terminal (standard error), unless `--quiet`.
    private static func show(_ event: SuiteEvent, on tracker: SuiteProgress, quiet: Bool) {
        switch event {
        case .runsEnded:
            tracker.end()
        case _ where quiet:
            break
        case .sweptLeftovers(let count):
            ProcessIO.progress("frugal: removed \(count) leftover\(count == 1 ? "" : "s") of a harness that died (sandboxes, cgroups)")
        case .starting(let index, let count, let plan):
            tracker.starting(index - 1, line: "[\(index)/\(count)] \(plan.workloadName) · \(plan.scenario.name) · run \(plan.repetition) …")
        case .finished(let index, let count, let record, let run):
            let score = run.score.map { DisplayFormat.score($0) } ?? "–"
            var lines = ["[\(index)/\(count)] \(record.workload) · \(record.scenario) · run \(record.repetition): \(record.outcome.rawValue)\(record.outcomeDetail.map { " (\($0))" } ?? ""), \(DisplayFormat.number(run.durationSeconds)) s, score \(score)"]
            for straggler in run.processes?.stragglers ?? [] {
                lines.append("    outlived the main process: \(straggler.command) (pid \(straggler.pid), lived \(DisplayFormat.number(straggler.livedSeconds)) s); ended by frugal")
            }
            if let missing = run.processes?.cgroupUnavailable {
                lines.append("    no cgroup for this run (\(missing)): descendants that leave the process group are not ended")
            }
            tracker.finished(index - 1, lines: lines)
        }
    }

    /// What the written report set says on standard error: the schedule, the files, the traces.
    private func report(_ outcome: SuiteOutcome, directory: URL) {
        if let warning = outcome.report.comparison?.machineWarning { ProcessIO.error("warning: \(warning)") }
        guard !quiet else { return }
        if let schedule = outcome.report.schedule { ProcessIO.progress("frugal: \(schedule.line)") }
        let files = outcome.files, traceCount = outcome.traceCount
        ProcessIO.progress("frugal: wrote " + files.prefix(files.count - traceCount).map(\.path).joined(separator: ", "))
        if traceCount > 0 {
            ProcessIO.progress("frugal: wrote \(traceCount) Perfetto trace\(traceCount == 1 ? "" : "s") in \(directory.appendingPathComponent(TraceFiles.directory).path): \(TraceFiles.howToOpen)")
        }
        let over = outcome.report.runs.filter { $0.trace?.path == nil && $0.trace?.omitted?.contains("over the budget") == true }
        if !over.isEmpty {
            ProcessIO.progress("frugal: \(over.count) trace\(over.count == 1 ? "" : "s") over the budget left out (runs[].trace.omitted says why); --trace writes them")
        }
    }

    /// `--history` before the run: a regular file that is a Frugal history, or a new path. A
    /// block device once got an SQLite header written over its first pages, after the whole run.
    /// `FRUGAL_MACHINE_GATE` names a file this run shares with other processes (MachineGate): one
    /// that cannot be opened is named now, not skipped in silence.
    static func checkMachineGate() throws {
        do {
            _ = try MachineGate.named(in: ProcessInfo.processInfo.environment)
        } catch {
            throw CLIFailure.badInput("\(MachineGate.environmentVariable)=\(ProcessInfo.processInfo.environment[MachineGate.environmentVariable] ?? ""): \(error)")
        }
    }

    static func checkHistory(_ path: String) throws {
        // A new path is fine, its folders too (the store makes them); what exists must be a file.
        var info = stat()
        if lstat(path, &info) == 0, let kind = FileKind.nonRegular(mode: info.st_mode) {
            throw CLIFailure.badInput("--history \(path): it is \(kind), not a regular file; name a history file or a new path")
        }
        do {
            try HistoryStore.checkWritable(path: path)
        } catch {
            throw CLIFailure.badInput("--history \(path): \(HistoryStore.describe(error))")
        }
    }

    static func interruptedFailure(_ signal: Int32?, detail: String) -> CLIFailure {
        let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
        return CLIFailure(code: signal == SIGTERM ? .terminated : .interrupted, message: "interrupted by \(name): \(detail)")
    }

    /// A signal's number from its name (`USR1`, `SIGUSR1`) or number.
    static func signalNumber(_ text: String) throws -> Int32 {
        let names: [String: Int32] = ["HUP": SIGHUP, "INT": SIGINT, "QUIT": SIGQUIT, "USR1": SIGUSR1, "USR2": SIGUSR2,
                                      "TERM": SIGTERM, "WINCH": SIGWINCH, "PWR": SIGPWR]
        let upper = text.uppercased()
        if let number = Int32(text), number > 0, number < 65 {
            // As by name: a signal the program cannot catch is no warning it could answer.
            guard number != SIGKILL && number != SIGSTOP else {
                throw CLIFailure.badInput("--memory-warning-signal: \(text) is SIG\(number == SIGKILL ? "KILL" : "STOP"), which a program cannot catch; use one it can handle, such as USR1")
            }
            return number
        }
        if let number = names[upper.hasPrefix("SIG") ? String(upper.dropFirst(3)) : upper] { return number }
        throw CLIFailure.badInput("--memory-warning-signal: unknown signal '\(text)' (use a name such as USR1, or a number)")
    }

    /// Apple's limits (`--rules apple-limits`), each run's that exceeded or would trip, with the source.
    private func printAppleLimits(_ report: Report) {
        guard rulePacks.contains(AppleLimits.packName) else { return }
        print("Apple's enforced limits (apple-limits; not scored):")
        for run in report.runs {
            for result in run.appleLimits ?? [] where result.status == .exceeded || result.status == .wouldTrip {
                print("  \(TextSanitizer.visible(run.workload)) · \(TextSanitizer.visible(run.scenario)) · run \(run.repetition): \(result.id): \(result.summary)")
                print("    source: \(result.source)")
            }
        }
        let within = report.runs.flatMap { $0.appleLimits ?? [] }.filter { $0.status == .within }.count
        print("  \(within) limit result\(within == 1 ? "" : "s") within; every result is in report.json (runs[].appleLimits) and report.html")
    }

    private func printSummary(_ report: Report) {
        // Names reach standard output shown visibly: a newline in one cannot start a line of its own.
        let name = { (text: String) in TextSanitizer.visible(text) }
        let width = max(8, report.results.map { name($0.workload).count }.max() ?? 0)
        print("\("workload".padding(toLength: width, withPad: " ", startingAt: 0))  scenario   score  failing audits (warnings: 50–89)")
        for result in report.results {
            let score = result.score.map { DisplayFormat.score($0) } ?? "–"
            let failing = result.audits.values.filter { ($0.score ?? 1) < 0.5 }.map(\.id).sorted()
            let warnings = result.audits.values.filter { $0.score.map { ScoreBand(score: $0) == .average } ?? false }.map { "warning: \($0.id)" }.sorted()
            let listed = (failing + warnings).joined(separator: ", ")
            print("\(name(result.workload).padding(toLength: width, withPad: " ", startingAt: 0))  \(name(result.scenario).padding(toLength: 9, withPad: " ", startingAt: 0))  \(score.padding(toLength: 5, withPad: " ", startingAt: 0))  \(listed.isEmpty ? "none" : listed)")
        }
    }
}
