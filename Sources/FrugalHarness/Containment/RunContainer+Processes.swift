import Foundation
import FrugalCore
import FrugalProbe

/// The run's processes: what outlived a main process (a finding), signals to every one of them,
/// and the end of every one. `main` is the session's current main process.
extension RunContainer {
    /// The run's other processes now: the cgroup's members, or without one the main process's group.
    func otherProcesses(main: any AppProcess) -> [pid_t] {
        // An in-memory app starts nothing on this machine, and its pid is nobody's group.
        guard startsSystemProcesses else { return [] }
        let members = cgroup.map { $0.pids } ?? ProcessGroupScan.members(ofGroup: main.pid)
        let escaped = EscapedProcessScan.carrying(sandbox.environment).filter { !members.contains($0) }
        var all = members + escaped
        all += adoptedProcesses(main: main.pid).filter { !all.contains($0) }
        return all.filter { $0 != main.pid }
    }

    /// The run's processes by the parent chain, live: the main process's descendants and the
    /// harness's adopted orphans that are the run's, however they left the cgroup and the process
    /// group (`ChildSubreaper`). Their zombies are reaped here.
    func adoptedProcesses(main: pid_t) -> [pid_t] {
        guard let adoption else { return [] }
        let found = ChildSubreaper.adopted(run: adoption.token, roots: [main])
        ChildSubreaper.reapAdopted(found)
        return found.filter { !$0.zombie }.map(\.pid)
    }

    /// SIGKILL to the run's processes by the parent chain until none is left (`ChildSubreaper`).
    func endAdopted(main: pid_t) {
        guard let adoption else { return }
        ChildSubreaper.endAdopted(run: adoption.token, roots: [main])
    }

    /// SIGKILL to every process of the run: `cgroup.kill` (or the v1 freezer sweep), else the
    /// process group; any that left the cgroup but carries the run's sandbox; and every one the
    /// parent chain leads to (the main process's descendants, the run's adopted orphans).
    func killEveryProcess(main: any AppProcess) {
        if let cgroup {
            cgroup.killAll()
        }
        main.kill(SIGKILL)
        killEscaped(main: main.pid)
        endAdopted(main: main.pid)
    }

    /// SIGKILL to the processes that carry this run's sandbox in their environment but are not
    /// in its cgroup: a program running as root wrote its pid into the root cgroup's
    /// `cgroup.procs` and a child it forked then outlived the run (issue 24, fresh probe).
    func killEscaped(main: pid_t) {
        for pid in EscapedProcessScan.carrying(sandbox.environment) where pid != main {
            _ = try? SystemCall.retrying("kill", subject: "\(pid)") { Glibc.kill(pid, SIGKILL) }
        }
    }

    /// Signals every process of the run (SIGTERM, SIGSTOP, SIGCONT, as systemd's control-group kill mode does).
    func signalEveryProcess(_ signal: Int32, main: any AppProcess) {
        main.kill(signal)
        // ESRCH: that one has ended meanwhile, which is no failure of the signal.
        for pid in otherProcesses(main: main) { _ = try? SystemCall.retrying("kill", subject: "\(pid)") { Glibc.kill(pid, signal) } }
    }

    /// Once a main process has exited: whatever of the run still runs outlived it. Each is
    /// recorded (command, how long it lived) and every one is ended. `mainCommand` is the main
    /// process's command line, which a child forked in its last moment still shows.
    func endStragglers(main: any AppProcess, mainExit: UInt64, mainCommand: String) {
        let left = otherProcesses(main: main)
        guard !left.isEmpty else { return }
        // A child forked in the main process's last moment may not have exec'd yet (it still shows
        // the main command line, or none mid-exec): give it up to 100 ms to show what it is.
        func settled(_ pid: pid_t) -> String? { ProcFS.arguments(pid: pid).flatMap { $0 == mainCommand ? nil : $0 } }
        var commands = left.map(settled)
        let deadline = MonotonicClock.now() + 100_000_000
        while commands.contains(where: { $0 == nil }) && MonotonicClock.now() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
            commands = zip(left, commands).map { pid, command in command ?? settled(pid) }
        }
        let found = zip(left, commands).map { pid, command in (pid, command ?? ProcFS.commandLine(pid: pid), ProcFS.startTime(pid: pid)) }
        if let cgroup {
            cgroup.killAll()
            killEscaped(main: main.pid)
        } else {
            for (pid, _, _) in found { _ = try? SystemCall.retrying("kill", subject: "\(pid)") { Glibc.kill(pid, SIGKILL) } }
        }
        endAdopted(main: main.pid)
        let ended = MonotonicClock.now()
        for (pid, command, started) in found {
            stragglers.append(Straggler(pid: pid, command: command,
                                        livedSeconds: MonotonicClock.seconds(from: started ?? mainExit, to: ended),
                                        outlivedMainSeconds: MonotonicClock.seconds(from: mainExit, to: ended)))
        }
    }

    /// The containment facts, read once every process has ended and before the cgroup is removed.
    /// `seen` is what the sampler saw of the run's other processes (their parents).
    func finish(main: any AppProcess, mainProcesses: [Int32], seen: [pid_t: (command: String, firstSeen: UInt64, parent: pid_t?)]) -> RunContainmentFacts {
        killEveryProcess(main: main)
        var facts = RunContainmentFacts(kind: cgroup?.kind.rawValue ?? "process-group", cgroupPath: cgroup?.path,
                                        cgroupUnavailable: cgroupUnavailable, cgroupCPUSeconds: cgroup?.cpuSeconds,
                                        stragglers: stragglers)
        facts.spawn = (main as? ChildProcess)?.spawnPath
        guard let taskExitToken else {
            facts.taskExitsUnavailable = TaskExitMonitor.shared.unavailableReason ?? "taskstats unavailable"
            return facts
        }
        // The kernel queues a thread's record before its parent can reap it; give the listener a
        // moment to read the main processes' records.
        let (exits, lost) = TaskExitMonitor.shared.exits(token: taskExitToken, timeout: 1) { exits in
            mainProcesses.allSatisfy { pid in exits.contains { $0.tid == pid } }
        }
        let members = Set(seen.keys).union(stragglers.map(\.pid)).union(mainProcesses)
        facts.parentsSeen = seen.compactMapValues(\.parent)
        var tree: [TaskExit] = []
        for root in mainProcesses {
            tree += ProcessTree(root: root, exits: exits, members: members, parentsSeen: facts.parentsSeen ?? [:]).allThreads
        }
        var unique: [Int32: TaskExit] = [:]
        for exit in tree { unique[exit.tid] = exit }
        if lost {
            facts.taskExitsUnavailable = "the kernel dropped exit records during the run (netlink ENOBUFS: too many exits machine-wide)"
        } else if !mainProcesses.allSatisfy({ pid in unique[pid] != nil }) {
            facts.taskExitsUnavailable = "the kernel's exit record of the main process did not arrive"
        } else {
            facts.taskExits = unique.values.sorted { ($0.startTime, $0.tid) < ($1.startTime, $1.tid) }
        }
        return facts
    }
}
