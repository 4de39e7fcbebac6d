/// Everything the harness collected about one run, before analysis: the raw facts.
public struct RunRecord: Codable, Sendable {
    public var workload: String
    public var scenario: String
    public var repetition: Int
    /// Monotonic ns when the process was spawned (exec): the run's time zero.
    public var startTime: UInt64
    /// Monotonic ns when the run ended (the last process was reaped).
    public var endTime: UInt64
    /// The last process's pid (the only one unless the scenario relaunched; see `processes`).
    public var pid: Int32?
    /// The steps as they were carried out.
    public var steps: [StepRecord]
    /// The workload's own event stream.
    public var events: [WorkloadEvent]
    /// Periodic samples of `/proc/<pid>/task/*`, taken by the harness.
    public var samples: [ProcessSample]
    public var outcome: RunOutcome
    /// Why the run ended as it did, in words (which watchdog, which signal).
    public var outcomeDetail: String?
    public var exitStatus: ExitStatus?
    /// `wait4`'s totals, when reaped: summed over every process of the run (see `processes`).
    public var resourceUsage: ResourceUsage?
    /// Whether the workload is a FrugalKit app (events) or a black-box command (process only).
    public var blackBox: Bool
    /// The display server a black-box program's environment named (`DISPLAY=:0`,
    /// `WAYLAND_DISPLAY=wayland-0`): what an X11 or Wayland client connects to. Nil when it named
    /// none, so the program had nothing to draw on, and for a FrugalKit app, which draws in the
    /// app model (`RunAnalysis+Drawing`).
    public var displayServer: String?
    /// Where the run's app sandbox was (deleted after the run unless kept).
    public var sandboxPath: String?
    /// `/proc/<pid>/io` read once the process had exited and before it was reaped: the final
    /// totals, writes in its last moments included.
    public var finalIO: ProcessIOCounters?
    /// Bytes the harness read from the workload's event stream (they count in `wchar` too).
    public var eventStreamBytes: Int?
    /// The files in the sandbox at the end of the run, before it was deleted.
    public var sandboxFiles: [SandboxFileRecord]?
    /// Every write to a file in the sandbox as the kernel showed it (inotify), with block diffs;
    /// nil in records made before the harness watched the sandbox.
    public var fileChanges: FileChangeLog?
    /// Every process of the run, in order: more than one when the scenario relaunched the app.
    /// Absent in records of a single process made before relaunch existed.
    public var processes: [ProcessSegment]?
    /// Each time the harness suspended the app (SIGSTOP), with `/proc` samples at both ends.
    public var suspensions: [SuspensionRecord]?
    /// The background time the app was given for background tasks, seconds.
    public var backgroundTimeBudget: Double?
    /// The shaping proxy's trace and the origin's counters; nil in records made before the
    /// harness ran a proxy per run.
    public var network: NetworkRecord?
    /// The memory facts the harness saw from outside (cgroup, warnings delivered, kernel pressure).
    public var memory: MemoryRunFacts?
    /// The run's cgroup (or why there was none), the kernel's exit records of its process tree,
    /// and the processes that outlived the main one; nil in records made before runs had cgroups.
    public var containment: RunContainmentFacts?
    /// A black-box program's main-thread hangs seen from outside (`/proc` samples of its wait state).
    public var outsideWatch: OutsideWatchFacts?
    /// What the harness saw of each thread to tell its role (its stack, where it waited); nil in
    /// records made before it looked.
    public var threadEvidence: [ThreadEvidence]?
    /// The run's hardware counters (every process, summed over relaunches); nil: not read.
    public var hardwareCounters: HardwareCounterReading?
    /// A black-box program's sync calls from syscall tracepoints; nil: not counted (an app).
    public var syncCalls: SyncCallFacts?
    /// Every wakeup of the run's threads with its cause, from the kernel's scheduler
    /// tracepoints (`WakeupAttributor`), or why they could not be traced; nil: not traced.
    public var wakeups: WakeupAttribution?
    /// The package energy the machine measured over the run (RAPL via powercap); nil: not read.
    public var measuredEnergy: MeasuredEnergy?
    /// The bundle's resource files and each use of them, watched from outside (``ResourceTrace``);
    /// nil: an older record, or a run with no bundle watch.
    public var resources: ResourceTrace?

    public init(workload: String, scenario: String, repetition: Int, startTime: UInt64, endTime: UInt64,
                pid: Int32?, steps: [StepRecord], events: [WorkloadEvent], samples: [ProcessSample],
                outcome: RunOutcome, outcomeDetail: String?, exitStatus: ExitStatus?,
                resourceUsage: ResourceUsage?, blackBox: Bool = false, network: NetworkRecord? = nil) {
        self.workload = workload
        self.scenario = scenario
        self.repetition = repetition
        self.startTime = startTime
        self.endTime = endTime
        self.pid = pid
        self.steps = steps
        self.events = events
        self.samples = samples
        self.outcome = outcome
        self.outcomeDetail = outcomeDetail
        self.exitStatus = exitStatus
        self.resourceUsage = resourceUsage
        self.blackBox = blackBox
        self.network = network
    }
}

/// One scenario step as carried out, with samples of the process at its boundaries.
public struct StepRecord: Codable, Sendable {
    public var index: Int
    public var step: ScenarioStep
    /// Monotonic ns at the step's start and end.
    public var start: UInt64
    public var end: UInt64
    /// For `wait`: when the idle phase began, once the app's threads had gone quiet.
    public var phaseStart: UInt64?
    /// `/proc` samples at the step's start and end, when the process was there to sample.
    public var sampleAtStart: ProcessSample?
    public var sampleAtEnd: ProcessSample?
    /// What went wrong carrying it out, if anything (a timeout waiting for an ack, say).
    public var problem: String?

    public init(index: Int, step: ScenarioStep, start: UInt64, end: UInt64, phaseStart: UInt64? = nil,
                sampleAtStart: ProcessSample? = nil, sampleAtEnd: ProcessSample? = nil, problem: String? = nil) {
        self.index = index
        self.step = step
        self.start = start
        self.end = end
        self.phaseStart = phaseStart
        self.sampleAtStart = sampleAtStart
        self.sampleAtEnd = sampleAtEnd
        self.problem = problem
    }
}
