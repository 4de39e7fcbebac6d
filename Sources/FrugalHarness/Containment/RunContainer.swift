import Foundation
import FrugalCore
import FrugalProbe

/// The owner of a run's containment: its cgroup (or why none could be made), its adoption by
/// the harness as subreaper, its watch of the kernel's exit records, its sandbox, and the
/// processes that outlived a main process. Every way to find, signal and end the run's processes
/// is here (`RunContainer+Processes.swift`), and so is the end of it all, in the order teardown
/// needs (``removeCgroup()``, then ``close(keepSandbox:)``).
///
/// A `RunSession` holds one (`container`); the main process is the session's, given to each call.
final class RunContainer {
    /// The run's cgroup (`RunCgroup+Linux.swift`): every process of the run, ended with it. Nil
    /// where none could be made (``cgroupUnavailable`` says why): the process group is used
    /// instead, which a program can leave (`setsid`).
    let cgroup: RunCgroup?
    let cgroupUnavailable: String?
    /// The run among the runs going on, for the processes the harness adopts as their subreaper
    /// (`ChildSubreaper+Linux.swift`); nil for an in-memory app.
    let adoption: RunAdoption?
    /// This run's watch of the kernel's exit records, when the machine gives them.
    let taskExitToken: Int?
    /// The app's home, kept across relaunches within the run.
    let sandbox: Sandbox
    /// Whether the run's processes are processes of this machine (not an in-memory app).
    let startsSystemProcesses: Bool
    /// Processes that outlived a main process of the run (ended by the harness).
    var stragglers: [Straggler] = []

    /// Makes the run's cgroup (or adopts the v2 memory group `memoryGroup`, which a process
    /// shares with no other v2 group), starts watching exit records, and makes the sandbox;
    /// undoes its own part when the sandbox cannot be made.
    init(workload: String, plan: RunPlan, options: HarnessOptions, adoption: RunAdoption?, startsSystemProcesses: Bool,
         memoryGroup: MemoryCgroup?) throws {
        self.adoption = adoption
        self.startsSystemProcesses = startsSystemProcesses
        if !startsSystemProcesses {
            // An in-memory app is no process of this machine: no cgroup could hold it.
            (cgroup, cgroupUnavailable) = (nil, "the app is not a process of this machine")
        } else if let group = memoryGroup {
            (cgroup, cgroupUnavailable) = (RunCgroup.adopting(v2MemoryGroup: group.path), nil)
        } else {
            switch RunCgroup.create(label: workload) {
            case .success(let group): (cgroup, cgroupUnavailable) = (group, nil)
            case .failure(let error): (cgroup, cgroupUnavailable) = (nil, error.description)
            }
        }
        taskExitToken = startsSystemProcesses ? TaskExitMonitor.shared.beginWatching() : nil
        do {
            sandbox = try Sandbox(parent: options.sandboxParent, workload: workload, resources: plan.bundleResources,
                                  documents: plan.documents)
        } catch {
            cgroup?.remove()
            taskExitToken.map(TaskExitMonitor.shared.endWatching)
            throw HarnessError.sandbox(parent: options.sandboxParent.path, underlying: error)
        }
    }

    /// The cgroup's members, for watchers on other threads; nil without a cgroup.
    var members: (@Sendable () -> [pid_t])? {
        guard let group = cgroup else { return nil }
        return { group.pids }
    }

    /// A start that failed after the sandbox was made: the sandbox, the cgroup and the watch go.
    func abandon() {
        sandbox.remove()
        cgroup?.remove()
        taskExitToken.map(TaskExitMonitor.shared.endWatching)
    }

    /// Removes the cgroup (its processes are ended first), at teardown.
    func removeCgroup() { cgroup?.remove() }

    /// The rest of teardown, after the servers and the memory group: the exit-record watch ends,
    /// the sandbox is removed (or marked kept) and the adoption ends.
    func close(keepSandbox: Bool) {
        taskExitToken.map(TaskExitMonitor.shared.endWatching)
        if keepSandbox { HarnessLeftovers.markKept(sandbox.root.path) } else { sandbox.remove() }
        adoption?.end()
    }

    /// A black-box program's sync counters on its v2 cgroup, opened before the program is
    /// started there, so its first calls are counted however soon it makes them; nil where the
    /// run has no v2 cgroup (the counters are then attached to the process once it exists).
    func syncCountersOnGroup(blackBox: Bool) -> Result<SyncCallSession, HardwareCountersUnavailable>? {
        guard blackBox, let cgroup, cgroup.kind == .v2 else { return nil }
        switch SyncCallCounters().attach(cgroupPath: cgroup.path) {
        case .success(let session): return .success(session)
        // Per process, below, may still work (e.g. a kernel without cgroup perf events).
        case .failure: return nil
        }
    }

    /// The wakeup tracer on the run's v2 cgroup (`WakeupTracer`), started before the program is
    /// born there, or why there can be none.
    func startWakeupTracer() -> Result<WakeupTracer, WakeupTraceUnavailable> {
        guard let cgroup else {
            return .failure(WakeupTraceUnavailable("the run has no cgroup to trace (\(cgroupUnavailable ?? "none was made"))"))
        }
        guard cgroup.kind == .v2 else {
            return .failure(WakeupTraceUnavailable("the run's cgroup is a v1 group: perf events follow v2 (unified) cgroups only"))
        }
        return WakeupTracer.start(cgroupPath: cgroup.path)
    }
}
