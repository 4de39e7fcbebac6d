import Foundation
import FrugalCore
import FrugalHarness
import FrugalReport

/// Everything a suite needs besides its plans: how to run, what to judge by, where to write.
public struct SuiteRequest: Sendable {
    /// The runs, as ``SuitePlanner`` made them (one shard's, when sharded).
    public var plans: [RunPlan]
    /// How each run is made (the workload host, the link, the radio, the interruption flag the
    /// caller's signal handlers set).
    public var options: HarnessOptions
    /// Exactly this many runs side by side; nil: scheduled by demand.
    public var jobs: Int?
    /// The shard these plans are, if the suite was split.
    public var shard: ShardInfo?
    /// The project's assertions, judged on the results.
    public var assertions: AssertionSet?
    /// Rule packs judged beside the guide's audits (`--rules`).
    public var rulePacks: [String] = []
    /// Perfetto traces: true every run's, false none, nil each within its budget.
    public var trace: Bool?
    /// A report to compare against, and how to name it in the comparison.
    public var baseline: (report: Report, name: String)?
    /// The directory the report set is written to (report.json, evidence.json, html, summary).
    public var out: URL
    /// The history database the run is appended to; nil: not recorded.
    public var history: String?
    /// The commit the history row names.
    public var commit: String?
    /// The version that gathered the evidence.
    public var toolVersion: String
    /// Whether the caller shows each run as it ends (``SuiteEvent/finished(index:count:record:run:)``):
    /// false (`--quiet`) skips scoring each run for the event, ~1 ms of a one-run suite's CPU;
    /// the report scores it anyway.
    public var showsFinishedRuns = true

    public init(plans: [RunPlan], options: HarnessOptions, out: URL, toolVersion: String) {
        self.plans = plans
        self.options = options
        self.out = out
        self.toolVersion = toolVersion
    }
}

/// What the pipeline tells its caller as it goes (a terminal draws it; a test may ignore it).
public enum SuiteEvent: Sendable {
    /// Leftovers of a harness that died were removed before the suite (sandboxes, cgroups).
    case sweptLeftovers(count: Int)
    /// Run `index` of `count` (1-based) starts.
    case starting(index: Int, count: Int, plan: RunPlan)
    /// Run `index` of `count` ended; `run` is its scored report entry.
    case finished(index: Int, count: Int, record: RunRecord, run: RunReport)
    /// Every run has ended (or the suite was stopped); the report is made next.
    case runsEnded
}

/// What a suite gave: the report as written, and what the caller must still hear of.
public struct SuiteOutcome: Sendable {
    /// The report, as written to the report set.
    public var report: Report
    /// The files of the report set, traces last.
    public var files: [URL]
    /// How many of ``files`` are Perfetto traces.
    public var traceCount: Int
    /// How many runs finished.
    public var runCount: Int
    /// Why the harness stopped before every run finished (the report holds those that did).
    public var harnessFailure: String?
    /// The signal that stopped the suite before every run finished.
    public var interrupted: Int32?
    /// A signal that came while the report set was written (the set is whole).
    public var lateSignal: Int32?
    /// Why the run could not be recorded in the history (the report is written).
    public var historyFailure: String?
}

/// Runs a suite, one way for every caller: plans → runs → evidence → report → history →
/// report set. The `frugal` executable is argument parsing and terminal I/O over it.
public enum SuitePipeline {
    /// The `frugal-workload-host` the plans need, or why there is none: built-in workloads and
    /// `balloon` steps run in it; a user's apps need it for nothing else.
    public static func workloadHost(for plans: [RunPlan]) throws -> String {
        let needsHost = plans.contains { plan in
            if case .builtIn = plan.target { return true }
            return plan.scenario.steps.contains { $0.kind.needsWorkloadHost }
        }
        let host = WorkloadHostLocator.locate()
        if needsHost && host == nil {
            throw PipelineFailure.harness("cannot find \(WorkloadHostLocator.executableName) beside frugal, on PATH or in FRUGAL_WORKLOAD_HOST")
        }
        return host ?? WorkloadHostLocator.executableName
    }

    /// Runs `request`'s plans and writes the report set. Throws ``PipelineFailure`` when
    /// nothing was measured (the report set already in `out` stays as it was) or the set
    /// cannot be written; a suite that measured something always writes its report, and
    /// the outcome says what stopped it early.
    public static func run(_ request: SuiteRequest, events: @escaping @Sendable (SuiteEvent) -> Void = { _ in }) throws -> SuiteOutcome {
        let options = request.options
        let plans = request.plans
        let swept = HarnessLeftovers.sweep(sandboxParent: options.sandboxParent)
        if !swept.isEmpty { events(.sweptLeftovers(count: swept.count)) }
        let started = Date()
        var records: [RunRecord] = []
        var harnessFailure: String?
        do {
            let progress: @Sendable (SuiteRunner.Progress) -> Void = { progress in
                switch progress {
                case .starting(let index, let count, let plan):
                    events(.starting(index: index, count: count, plan: plan))
                case .finished(let index, let count, let record):
                    guard request.showsFinishedRuns else { return }
                    events(.finished(index: index, count: count, record: record, run: ReportBuilder.runReport(record)))
                }
            }
            if let jobs = request.jobs {
                records = try SuiteRunner(options: options, jobs: jobs).run(plans, progress: progress)
            } else {
                records = try ResourceScheduler(options: options).run(plans, progress: progress)
            }
        } catch let failure as SuiteFailure {
            // An app built against another protocol is the user's build to fix, not a finding.
            if let mismatch = failure.underlying as? ProtocolMismatch { throw PipelineFailure.badInput(mismatch.description) }
            records = failure.completed
            harnessFailure = "\(failure.underlying)"
        } catch {
            harnessFailure = "\(error)"
        }
        let suiteSeconds = Date().timeIntervalSince(started)
        events(.runsEnded)
        let interrupted = options.interruption.signal
        let out = request.out.path
        // Nothing measured: the report already in `out` stays as it was.
        if records.isEmpty {
            if let harnessFailure { throw PipelineFailure.harness("\(harnessFailure); no run finished, so \(out) was left as it was") }
            if let interrupted {
                throw PipelineFailure(kind: .interrupted(signal: interrupted), message: "before any run finished; \(out) was left as it was")
            }
        }
        let evidence = makeEvidence(request, records: records, started: started, suiteSeconds: suiteSeconds, interrupted: interrupted)
        // An interrupted suite is not a point of the history: its trends would show a partial suite.
        let history = interrupted != nil ? nil : request.history.map { (path: $0, commit: request.commit) }
        let written = try EvidenceReport.write(evidence, tool: evidence.gatheredBy, baseline: request.baseline, history: history, to: request.out)
        return SuiteOutcome(report: written.report, files: written.files, traceCount: written.traceCount, runCount: records.count,
                            harnessFailure: harnessFailure, interrupted: interrupted,
                            lateSignal: interrupted == nil ? options.interruption.signal : nil, historyFailure: written.historyFailure)
    }

    /// The run's evidence (`evidence.json`): every record with the machine, shard, schedule,
    /// assertions and rule packs, from which the report is made the one way `frugal reaudit`
    /// makes it again.
    static func makeEvidence(_ request: SuiteRequest, records: [RunRecord], started: Date, suiteSeconds: Double,
                             interrupted: Int32?) -> RunEvidence {
        var environment = EnvironmentSurvey.survey().environmentInfo
        switch request.jobs {
        case 1?: environment.notes.append("each workload ran alone (--jobs 1)")
        case let jobs?: environment.notes.append("\(jobs) workloads ran side by side (--jobs \(jobs)): CPU contention stretches launch times and handler durations; wakeup counts are per thread and not affected")
        case nil: environment.notes.append("scheduled by demand: workloads that sleep most of the time ran side by side; one launch or timed step (input, terminate, foreground) of a timing-judged run at a time, machine-wide; CPU-bound, busy-between-steps and memory-pressure runs ran alone")
        }
        if let interrupted {
            environment.notes.append("the suite was interrupted (\(interrupted == SIGTERM ? "SIGTERM" : "SIGINT")): \(records.filter { $0.outcome != .interrupted }.count) of \(request.plans.count) runs finished")
        }
        let schedule = ScheduleSummary.of(records, mode: request.jobs.map { "jobs \($0)" } ?? "demand", wallSeconds: suiteSeconds,
                                          cores: environment.cores, scenarioSeconds: request.plans.reduce(0.0) { $0 + $1.scenario.waitSeconds })
        return RunEvidence(gatheredBy: ToolInfo(version: request.toolVersion), generatedAt: InternetDateTime.string(from: started),
                           environment: environment, shard: request.shard, schedule: schedule, assertions: request.assertions,
                           rulePacks: request.rulePacks.isEmpty ? nil : request.rulePacks,
                           traces: request.trace.map { $0 ? "always" : "never" }, records: records)
    }
}
