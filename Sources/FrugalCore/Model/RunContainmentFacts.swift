/// How a run's processes were held together and ended, and what the kernel said about each of
/// them as it exited: the facts behind black-box runs' whole-tree numbers.
public struct RunContainmentFacts: Codable, Sendable, Equatable {
    /// `cgroup-v2`, `cgroup-v1-freezer`, or `process-group` when no cgroup could be made.
    public var kind: String
    /// The run's cgroup, when there was one.
    public var cgroupPath: String?
    /// Why no cgroup held the run (the process group was used instead), when none did.
    public var cgroupUnavailable: String?
    /// How the main process was started into its cgroups: `clone3-into-cgroup` (born in the run's
    /// v2 group), `clone3-child-joined` (it wrote cgroup.procs itself before its exec),
    /// `posix_spawn` (no cgroup) or `shell-stub` (a `/bin/sh` joined, then exec'd the program: its
    /// start and wakeups are in the program's). Nil in records made before this was recorded.
    public var spawn: String?
    /// CPU seconds of every process that ran in the cgroup (v2 `cpu.stat` `usage_usec`).
    public var cgroupCPUSeconds: Double?
    /// Every thread of the run's process tree that exited, with the kernel's final counters
    /// (taskstats); nil when they could not be had (`taskExitsUnavailable` says why).
    public var taskExits: [TaskExit]?
    public var taskExitsUnavailable: String?
    /// Processes still running when the program's main process ended: a finding, since the harness ended them.
    public var stragglers: [Straggler]
    /// Each process's parent as the sampler saw it while it ran (by pid): a process whose parent
    /// died first is re-parented, so its exit record's parent is no longer the one that started it.
    public var parentsSeen: [Int32: Int32]?

    public init(kind: String, cgroupPath: String? = nil, cgroupUnavailable: String? = nil, cgroupCPUSeconds: Double? = nil,
                taskExits: [TaskExit]? = nil, taskExitsUnavailable: String? = nil, stragglers: [Straggler] = []) {
        self.kind = kind
        self.cgroupPath = cgroupPath
        self.cgroupUnavailable = cgroupUnavailable
        self.cgroupCPUSeconds = cgroupCPUSeconds
        self.taskExits = taskExits
        self.taskExitsUnavailable = taskExitsUnavailable
        self.stragglers = stragglers
    }
}

/// A process that outlived the run's main process, and was ended by the harness.
public struct Straggler: Codable, Sendable, Equatable {
    public var pid: Int32
    /// Its command line (`/proc/<pid>/cmdline`), or its name when that was empty.
    public var command: String
    /// Seconds from its start to when the harness ended it.
    public var livedSeconds: Double
    /// Seconds it outlived the main process by.
    public var outlivedMainSeconds: Double

    public init(pid: Int32, command: String, livedSeconds: Double, outlivedMainSeconds: Double) {
        self.pid = pid
        self.command = command
        self.livedSeconds = livedSeconds
        self.outlivedMainSeconds = outlivedMainSeconds
    }
}

/// The run's process tree as the kernel's exit records give it, and how a wrapper is seen.
public struct ProcessTree: Sendable {
    /// Each process's threads, by process id.
    public let threadsByProcess: [Int32: [TaskExit]]
    /// The spawned process.
    public let root: Int32
    /// Processes the harness ended because they outlived a main process: never a wrapper's child.
    public let stragglers: Set<Int32>

    /// The exits that belong to the tree under `root` (children by their parent at exit, plus
    /// `members`: processes seen in the run's cgroup, orphans included).
    /// Each process's parent: the one the sampler saw while it ran, else its parent at exit.
    public let parents: [Int32: Int32]

    public init(root: Int32, exits: [TaskExit], members: Set<Int32> = [], stragglers: Set<Int32> = [], parentsSeen: [Int32: Int32] = [:]) {
        self.root = root
        self.stragglers = stragglers
        var parents = parentsSeen
        for exit in exits where exit.isMainThread && parents[exit.tgid] == nil { parents[exit.tgid] = exit.ppid }
        self.parents = parents
        var processes: Set<Int32> = members.union([root])
        var changed = true
        while changed {
            changed = false
            for exit in exits where !processes.contains(exit.tgid) && processes.contains(parents[exit.tgid] ?? exit.ppid) {
                processes.insert(exit.tgid)
                changed = true
            }
        }
        threadsByProcess = Dictionary(grouping: exits.filter { processes.contains($0.tgid) }, by: \.tgid)
    }

    /// Every thread of every process of the tree.
    public var allThreads: [TaskExit] { threadsByProcess.values.flatMap { $0 } }

    /// The main thread's exit of `pid`.
    public func mainThread(of pid: Int32) -> TaskExit? { threadsByProcess[pid]?.first { $0.isMainThread } }

    private func child0(_ children: [TaskExit]) -> Int32 { children.first?.tgid ?? -1 }

    /// The processes whose parent at exit was `pid`.
    public func children(of pid: Int32) -> [TaskExit] {
        threadsByProcess.values.compactMap { threads in threads.first { $0.isMainThread && parents[$0.tgid] == pid } }
    }

    /// The program's own main process, past any wrappers. A wrapper (`sh -c CMD`, `perf stat`,
    /// `time`, `env`) is a process that started exactly one child, waited for it (the child ended
    /// first, or within a second after it when one signal ended both, as SIGTERM to the run does;
    /// never a child the harness ended as a straggler) and lived not much longer than it: the
    /// child lived at least half the wrapper's life, or, however short the child's life, the
    /// wrapper's own life outside it (its start, its exit), less the time it waited for a CPU
    /// (its threads' run-queue wait, from the same exit records), was at most
    /// ``wrapperOwnTimeLimit`` (a wrapper starts, waits and exits; a program that works, or
    /// sleeps, and then runs one short helper lives longer than that outside it).
    /// The chain is followed from the spawned process down to the first process that is not one.
    /// Returns the chain, the program last.
    public var programChain: [Int32] {
        var chain = [root]
        while let current = chain.last, let parent = mainThread(of: current) {
            let children = self.children(of: current)
            let grace: UInt64 = stragglers.contains(child0(children)) ? 0 : 1_000_000_000
            guard children.count == 1, let child = children.first, child.endTime <= parent.endTime + grace,
                  !chain.contains(child.tgid) else { break }
            let parentLife = parent.endTime &- parent.startTime
            let childLife = child.endTime &- child.startTime
            // Less the time the wrapper waited for a CPU: a loaded machine stretches its start and
            // its report by the run queue, not by anything it does (while its child runs it sleeps).
            let queued = UInt64(max(0, ((threadsByProcess[current] ?? []).reduce(0) { $0 + ($1.runQueueWaitSeconds ?? 0) }) * 1e9))
            let ownTime = parentLife > childLife ? parentLife - childLife : 0
            let ownWork = ownTime > queued ? ownTime - queued : 0
            let waited = Double(childLife) >= 0.5 * Double(parentLife) || ownWork <= Self.wrapperOwnTimeLimit
            guard waited else { break }
            chain.append(child.tgid)
        }
        return chain
    }

    /// The longest life a wrapper has outside its one child, ns, not counting its wait for a CPU:
    /// `sh -c` takes about 1 ms to start and `perf stat` 60–145 ms (with 11–46 wakeups of its
    /// own, seen around a 3 ms program on a loaded machine), whatever the program's length.
    /// Its wall time alone is no bound: beside two CPU hogs and builds (load 25 on 2 cores) the
    /// same `perf stat` took 180–420 ms of wall for 12–16 ms of CPU, the rest its run-queue wait.
    public static let wrapperOwnTimeLimit: UInt64 = 250_000_000
}
