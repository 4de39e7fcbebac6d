/// How a run's processes were held and what became of them, for readers of the report: the
/// containment used (or why there was none), the program's own process past wrappers, the
/// processes that outlived the main one, and which timeline lanes the run has data for.
public struct RunProcessesSummary: Codable, Sendable, Equatable {
    /// `cgroup-v2`, `cgroup-v1-freezer` or `process-group`.
    public var containment: String
    /// Why no cgroup held the run, when none did: a program could leave the process group (`setsid`).
    public var cgroupUnavailable: String?
    /// How the program was started into its cgroups (`RunContainmentFacts.spawn`), when recorded.
    public var spawn: String?
    /// Why the kernel's exit records of the process tree are missing, when they are.
    public var taskExitsUnavailable: String?
    /// The commands from the spawned process down to the program whose main thread is reported,
    /// when wrappers (`sh -c`, `perf stat`) stood between; nil when the spawned process is the program.
    public var wrapperChain: [String]?
    /// A black-box program: the thread judged its main thread (the one that runs its main queue or
    /// run loop: under `dispatchMain()` a pool thread) and the evidence; nil for an app, or a record
    /// made before the harness judged it.
    public var mainThread: String?
    /// Processes that outlived a main process of the run; the harness ended them.
    public var stragglers: [Straggler]?
    /// The timeline lanes with data for this run (`states`, `handlers`, `steps`, `activity`,
    /// `hangs`, `radio`), so a renderer draws only those.
    public var lanes: [String]

    public init(containment: String, cgroupUnavailable: String? = nil, taskExitsUnavailable: String? = nil, wrapperChain: [String]? = nil,
                stragglers: [Straggler]? = nil, lanes: [String]) {
        self.containment = containment
        self.cgroupUnavailable = cgroupUnavailable
        self.taskExitsUnavailable = taskExitsUnavailable
        self.wrapperChain = wrapperChain
        self.stragglers = stragglers
        self.lanes = lanes
    }

    /// The summary of a run, nil for records made before runs had containment.
    public init?(_ record: RunRecord, timeline: Timeline) {
        guard let facts = record.containment else { return nil }
        var lanes: [String] = []
        if !timeline.states.isEmpty { lanes.append("states") }
        if !timeline.handlers.isEmpty { lanes.append("handlers") }
        if !timeline.steps.isEmpty { lanes.append("steps") }
        if !timeline.activity.isEmpty { lanes.append("activity") }
        if !(timeline.hangs ?? []).isEmpty || record.outsideWatch != nil { lanes.append("hangs") }
        if timeline.radio != nil { lanes.append("radio") }
        var chain: [String]?
        if record.blackBox, let exits = facts.taskExits, let root = record.processes?.first?.pid {
            let tree = ProcessTree(root: root, exits: exits, stragglers: Set(facts.stragglers.map(\.pid)), parentsSeen: facts.parentsSeen ?? [:])
            let pids = tree.programChain
            if pids.count > 1 { chain = pids.map { tree.mainThread(of: $0)?.command ?? "pid \($0)" } }
        }
        self.init(containment: facts.kind, cgroupUnavailable: facts.cgroupUnavailable, taskExitsUnavailable: facts.taskExitsUnavailable,
                  wrapperChain: chain, stragglers: facts.stragglers.isEmpty ? nil : facts.stragglers, lanes: lanes)
        spawn = facts.spawn
        mainThread = record.blackBox ? record.outsideWatch?.mainThreads.flatMap(MainThreadChoice.summary) : nil
    }
}
