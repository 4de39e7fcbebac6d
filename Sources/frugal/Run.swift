import ArgumentParser
import Foundation
import FrugalConfig
import FrugalCore
import FrugalHarness
import FrugalHistory
import FrugalReport
import FrugalWorkloads

/// `frugal run`: runs workloads under scenarios and writes the report.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run workloads under scenarios and write a scored report.",
        discussion: """
        With no arguments, runs every built-in workload under its default scenarios and writes
        Reports/latest/report.json, report.html and summary.md. Progress goes to standard error.

        After --, runs any program as a black box (process-level metrics only):
          frugal run -- sleep 2

        With a frugal.yml in the current directory (or --config FILE), runs the apps it lists under
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

    @Option(help: ArgumentHelp("Run exactly n workloads side by side, whatever they do. Without it, runs are scheduled by what they use: workloads that sleep most of the time run together (launches spaced 1 s apart), while CPU-bound, timing-judged and memory-pressure runs get the machine to themselves. --jobs 1 measures each workload alone.", valueName: "n"))
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

    func run() throws {
        // --out first: building a project's products or running the suite may take minutes.
        let out = try ReportInput.resolveOut(self.out)
        let directory = URL(fileURLWithPath: out)
        let outLock = try ReportInput.lockOut(out)
        // Held until the report is written (and released by the kernel however frugal ends).
        defer { withExtendedLifetime(outLock) {} }
        // Inputs are checked before minutes of running, so a typo fails at once.
        if !noHistory { try Self.checkHistory(history) }
        let project = try loadProject()
        var shardInfo = shard.flatMap(ShardPlan.parse)
        var plans = try makePlans(project: project)
        if let shard = shardInfo {
            shardInfo?.suite = ShardPlan.fingerprint(of: plans.map { ($0.workloadName, $0.scenario.name, $0.repetition) })
            plans = Self.slice(plans, shard: shard)
        }
        let assertions = project?.assertions
        let baselineReport = try baseline.map(ReportInput.load)
        // The workload host runs the built-in apps and the hog of balloon steps; a user's apps need it for nothing else.
        let needsHost = plans.contains { plan in
            if case .builtIn = plan.target { return true }
            return plan.scenario.steps.contains { if case .balloon = $0 { return true } else { return false } }
        }
        let host = WorkloadHostLocator.locate()
        if needsHost && host == nil {
            throw CLIFailure.harness("cannot find \(WorkloadHostLocator.executableName) beside frugal, on PATH or in FRUGAL_WORKLOAD_HOST")
        }
        var options = HarnessOptions(workloadHost: host ?? WorkloadHostLocator.executableName, commandTimeout: timeout, keepSandboxes: keepSandboxes,
                                     networkProfile: NetworkProfile.named(networkProfile) ?? .lte, radio: Self.radios[radio] ?? .lte)
        options.programMemoryWarningSignal = try memoryWarningSignal.map(Self.signalNumber)
        options.server = try serverSettings()
        SignalHandling.install(options.interruption, sandboxParent: options.sandboxParent, out: directory, quiet: quiet)
        let swept = HarnessLeftovers.sweep(sandboxParent: options.sandboxParent)
        if !swept.isEmpty && !quiet {
            ProcessIO.progress("frugal: removed \(swept.count) leftover\(swept.count == 1 ? "" : "s") of a harness that died (sandboxes, cgroups)")
        }
        let started = Date()
        // Where the suite is and how long is left, as the schedule plays out (Run+Progress.swift).
        let tracker = SuiteProgress(plans: plans, jobs: jobs)
        if !quiet {
            let seconds = plans.reduce(0.0) { $0 + $1.scenario.waitSeconds }
            ProcessIO.progress("frugal: \(plans.count) run\(plans.count == 1 ? "" : "s")\(shardInfo.map { " (shard \($0.index)/\($0.count))" } ?? ""), \(DisplayFormat.integer(seconds)) s of scenarios, about \(SuiteProgress.clock(tracker.expectedSeconds)) as scheduled")
            tracker.begin()
        }
        var records: [RunRecord] = []
        var harnessFailure: String?
        do {
            let onProgress: @Sendable (SuiteRunner.Progress) -> Void = { progress in
                guard !quiet else { return }
                switch progress {
                case .starting(let index, let count, let plan):
                    tracker.starting(index - 1, line: "[\(index)/\(count)] \(plan.workloadName) · \(plan.scenario.name) · run \(plan.repetition) …")
                case .finished(let index, let count, let record):
                    let run = ReportBuilder.runReport(record)
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
            if let jobs {
                records = try SuiteRunner(options: options, jobs: jobs).run(plans, progress: onProgress)
            } else {
                records = try ResourceScheduler(options: options).run(plans, progress: onProgress)
            }
        } catch let failure as SuiteFailure {
            // An app built against another protocol is the user's build to fix (exit 1), not a finding.
            if let mismatch = failure.underlying as? ProtocolMismatch { throw CLIFailure.badInput(mismatch.description) }
            records = failure.completed
            harnessFailure = "\(failure.underlying)"
        } catch {
            harnessFailure = "\(error)"
        }
        let suiteSeconds = Date().timeIntervalSince(started)
        tracker.end()
        let interrupted = options.interruption.signal
        // Nothing measured: the report already in --out stays as it was.
        if records.isEmpty {
            if let harnessFailure { throw CLIFailure.harness("\(harnessFailure); no run finished, so \(out) was left as it was") }
            if interrupted != nil { throw Self.interruptedFailure(interrupted, detail: "before any run finished; \(out) was left as it was") }
        }
        let survey = EnvironmentSurvey.survey()
        var environment = survey.environmentInfo
        switch jobs {
        case 1?: environment.notes.append("each workload ran alone (--jobs 1)")
        case let jobs?: environment.notes.append("\(jobs) workloads ran side by side (--jobs \(jobs)): CPU contention stretches launch times and handler durations; wakeup counts are per thread and not affected")
        case nil: environment.notes.append("scheduled by demand: workloads that sleep most of the time ran side by side (launches 1 s apart); CPU-bound, timing-judged and memory-pressure runs ran alone")
        }
        if let interrupted {
            environment.notes.append("the suite was interrupted (\(interrupted == SIGTERM ? "SIGTERM" : "SIGINT")): \(records.filter { $0.outcome != .interrupted }.count) of \(plans.count) runs finished")
        }
        // The report is made from the evidence, the one way `frugal reaudit` makes it again.
        let schedule = ScheduleSummary.of(records, mode: jobs.map { "jobs \($0)" } ?? "demand", wallSeconds: suiteSeconds,
                                          cores: environment.cores, scenarioSeconds: plans.reduce(0.0) { $0 + $1.scenario.waitSeconds })
        let evidence = RunEvidence(gatheredBy: ToolInfo(version: Frugal.version), generatedAt: ISO8601DateFormatter().string(from: started),
                                   environment: environment, shard: shardInfo, schedule: schedule, assertions: assertions,
                                   rulePacks: rulePacks.isEmpty ? nil : rulePacks, traces: trace.map { $0 ? "always" : "never" },
                                   records: records)
        var report = evidence.report(tool: evidence.gatheredBy)
        if !quiet, let schedule = report.schedule { ProcessIO.progress("frugal: \(schedule.line)") }
        if let baselineReport, let baseline {
            report.comparison = ReportComparator.compare(base: baselineReport, head: report, baseline: baseline)
            if let warning = report.comparison?.machineWarning { ProcessIO.error("warning: \(warning)") }
        }
        let traces = TraceFiles.render(&report, mode: trace.map { $0 ? .always : .never } ?? .withinBudget)
        // An interrupted suite is not a point of the history: its trends would show a partial suite.
        let history = noHistory || interrupted != nil ? nil : record(report)
        do {
            let files = try TraceFiles.writeSet(report, traces: traces, to: directory, history: history?.trends, evidence: evidence)
            let traceCount = traces.count
            if !quiet {
                ProcessIO.progress("frugal: wrote " + files.prefix(files.count - traceCount).map(\.path).joined(separator: ", "))
                if traceCount > 0 {
                    ProcessIO.progress("frugal: wrote \(traceCount) Perfetto trace\(traceCount == 1 ? "" : "s") in \(directory.appendingPathComponent(TraceFiles.directory).path): \(TraceFiles.howToOpen)")
                }
                let over = report.runs.filter { $0.trace?.path == nil && $0.trace?.omitted?.contains("over the budget") == true }
                if !over.isEmpty {
                    ProcessIO.progress("frugal: \(over.count) trace\(over.count == 1 ? "" : "s") over the budget left out (runs[].trace.omitted says why); --trace writes them")
                }
            }
        } catch {
            // The history must not hold a run whose report does not exist.
            history?.undo()
            throw CLIFailure.harness("cannot write the report to \(directory.path): \(ErrorText.reason(error))")
        }
        if let harnessFailure {
            throw CLIFailure.harness("\(harnessFailure) (the report holds the \(records.count) runs that finished)")
        }
        if interrupted != nil {
            throw Self.interruptedFailure(interrupted, detail: "the report in \(out) holds the \(records.count) runs that finished or were going on")
        }
        // A signal that came while the set was written: the set is whole (it is written as one),
        // but the user asked to stop, and a script waiting on the exit status must hear it.
        if let late = options.interruption.signal {
            throw Self.interruptedFailure(late, detail: "while the report was written; the report in \(out) is complete, with all \(records.count) runs")
        }
        if !quiet && !jsonStdout {
            printSummary(report)
            printAppleLimits(report)
            if let comparison = report.comparison { print(ComparisonTextRenderer.render(comparison), terminator: "") }
        }
        if let failure = history?.failure {
            // The report is written; the run is not in the history. CI must hear of it.
            try? CIOutput.finish(report, jsonStdout: jsonStdout, annotations: githubAnnotations)
            throw CLIFailure.harness("the report was written, but the run could not be recorded in \(self.history): \(failure)")
        }
        try CIOutput.finish(report, jsonStdout: jsonStdout, annotations: githubAnnotations)
    }

    /// `--history` before the run: a regular file that is a Frugal history, or a new path. A
    /// block device once got an SQLite header written over its first pages, after the whole run.
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

    /// What recording the run in the history gave: the trends for the HTML report, a way to take
    /// the run out again, or why it could not be recorded.
    private struct HistoryRecording {
        var trends: ReportHistory?
        var failure: String?
        var undo: () -> Void = {}
    }

    /// Appends the report to the history (waiting for another run that holds the database, up to
    /// `HistoryStore.defaultBusyTimeout`) and reads back the recent trends.
    private func record(_ report: Report) -> HistoryRecording {
        do {
            let store = try HistoryStore(path: history)
            let id = try store.append(report, commit: ReportInput.gitCommit(), recordedAt: report.generatedAt)
            let trends = try? store.history(limit: 20)
            return HistoryRecording(trends: trends, failure: nil, undo: { try? store.removeRun(id) })
        } catch {
            return HistoryRecording(trends: nil, failure: HistoryStore.describe(error))
        }
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

    /// The plans of one shard: a workload under a scenario, with all its repetitions, is one
    /// unit, weighed by its scenario time (``ShardPlan``).
    static func slice(_ plans: [RunPlan], shard: ShardInfo) -> [RunPlan] {
        var order: [ResultKey] = []
        var seconds: [ResultKey: Double] = [:]
        for plan in plans {
            let key = ResultKey(workload: plan.workloadName, scenario: plan.scenario.name)
            if seconds[key] == nil { order.append(key) }
            seconds[key, default: 0] += plan.scenario.waitSeconds
        }
        let assignment = ShardPlan.assign(seconds: order.map { seconds[$0] ?? 0 }, count: shard.count)
        let mine = Set(zip(order, assignment).filter { $0.1 == shard.index }.map(\.0))
        return plans.filter { mine.contains(ResultKey(workload: $0.workloadName, scenario: $0.scenario.name)) }
    }

    func makePlans(project: ProjectConfig?) throws -> [RunPlan] {
        if !command.isEmpty {
            guard workloads.isEmpty else {
                throw CLIFailure.badInput("--workload does not apply to a black-box command after --")
            }
            // Without --scenario a program runs to its own end (within --timeout); an unknown
            // program gets the machine to itself (RunPlan's default demand).
            let chosen = try scenarios.isEmpty ? [Self.commandScenario]
                : scenarios.map { name -> Scenario in
                    guard let scenario = ScenarioCatalogue.named(name) else {
                        throw CLIFailure.badInput("unknown scenario '\(name)'; known scenarios: \(ScenarioCatalogue.all.map(\.name).joined(separator: ", "))")
                    }
                    return scenario
                }
            guard ScenarioRunner.executable(command[0]) != nil else {
                throw CLIFailure.badInput("command not found: \(command[0]) (not an executable file, nor on PATH)")
            }
            let raw = ProcessIO.rawArgumentsAfterTerminator(count: command.count).map { Array($0.dropFirst()) }
            let input = try inputSignal.map { text -> Int32 in
                guard let number = ProgramSignal.number(text) else {
                    throw CLIFailure.badInput("--input-signal: '\(text)' is not a signal a program can catch (use a name such as USR2, or a number; not KILL or STOP)")
                }
                return number
            }
            return chosen.flatMap { scenario in
                (1...repetitions).map {
                    var plan = RunPlan(target: .command(command), scenario: scenario, repetition: $0)
                    plan.rawArguments = raw
                    plan.programInputSignal = input
                    return plan
                }
            }
        }
        if let project, !project.apps.isEmpty {
            // The project's apps (those --workload names, or all); other names are built-in workloads.
            let apps = workloads.isEmpty ? project.apps : workloads.compactMap(project.app(named:))
            let others = workloads.filter { project.app(named: $0) == nil }
            // Built-in names are checked first: building the products may take minutes.
            let builtIns: [RunPlan]
            do {
                builtIns = others.isEmpty ? [] : try builtInPlans(others)
            } catch let failure as CLIFailure {
                throw CLIFailure.badInput(failure.message + "; \(project.file)'s apps: \(project.apps.map(\.name).joined(separator: ", "))")
            }
            return try projectPlans(project, apps: apps) + builtIns
        }
        return try builtInPlans(workloads)
    }

    private func builtInPlans(_ workloads: [String]) throws -> [RunPlan] {
        let known = WorkloadCatalogue.all.map(\.name)
        let chosen: [WorkloadDefinition]
        if workloads.isEmpty {
            chosen = WorkloadCatalogue.defaultSuite
        } else {
            chosen = try workloads.map { name in
                guard let workload = WorkloadCatalogue.named(name) else {
                    throw CLIFailure.badInput("unknown workload '\(name)'; known workloads: \(known.joined(separator: ", "))")
                }
                return workload
            }
        }
        let namedScenarios = try scenarios.map { name -> Scenario in
            guard let scenario = ScenarioCatalogue.named(name) else {
                throw CLIFailure.badInput("unknown scenario '\(name)'; known scenarios: \(ScenarioCatalogue.all.map(\.name).joined(separator: ", "))")
            }
            return scenario
        }
        var plans: [RunPlan] = []
        for workload in chosen {
            let scenarios = namedScenarios.isEmpty ? workload.defaultScenarios.compactMap(ScenarioCatalogue.named) : namedScenarios
            for scenario in scenarios {
                for repetition in 1...repetitions {
                    var plan = RunPlan(target: .builtIn(name: workload.name), scenario: scenario, repetition: repetition,
                                       bundleResources: workload.bundleResources, documents: workload.documents)
                    plan.demand = RunDemand.builtIn(scenario: scenario, isLight: WorkloadCatalogue.lightWorkloads.contains(workload.name))
                    plans.append(plan)
                }
            }
        }
        return plans
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
