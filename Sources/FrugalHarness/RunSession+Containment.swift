import Foundation
import FrugalCore
import FrugalProbe

/// The run's containment: what outlived a main process (a finding), the end of every process of
/// the run, and the teardown that every end of a run goes through (the last step, a thrown error,
/// a cancellation), which leaves no process, cgroup, server or sandbox behind.
extension RunSession {
    /// The run's other processes now: the cgroup's members, or without one the main process's group.
    func otherProcesses() -> [pid_t] {
        // An in-memory app starts nothing on this machine, and its pid is nobody's group.
        guard launcher.startsSystemProcesses else { return [] }
        if let containment { return containment.pids.filter { $0 != process.pid } }
        return ProcessGroupScan.members(ofGroup: process.pid).filter { $0 != process.pid }
    }

    /// SIGKILL to every process of the run: `cgroup.kill` (or the v1 freezer sweep), else the process group.
    func killEveryProcess() {
        if let containment {
            containment.killAll()
        }
        process.kill(SIGKILL)
    }

    /// Signals every process of the run (SIGTERM, SIGSTOP, SIGCONT, as systemd's control-group kill mode does).
    func signalEveryProcess(_ signal: Int32) {
        process.kill(signal)
        // ESRCH: that one has ended meanwhile, which is no failure of the signal.
        for pid in otherProcesses() { _ = try? SystemCall.retrying("kill", subject: "\(pid)") { Glibc.kill(pid, signal) } }
    }

    /// Once a main process has exited: whatever of the run still runs outlived it. Each is
    /// recorded (command, how long it lived) and every one is ended.
    func endStragglers(mainExit: UInt64) {
        let left = otherProcesses()
        guard !left.isEmpty else { return }
        // A child forked in the main process's last moment may not have exec'd yet (it still shows
        // the main command line, or none mid-exec): give it up to 100 ms to show what it is.
        let mainCommand = launchArguments.joined(separator: " ")
        func settled(_ pid: pid_t) -> String? { ProcFS.arguments(pid: pid).flatMap { $0 == mainCommand ? nil : $0 } }
        var commands = left.map(settled)
        let deadline = MonotonicClock.now() + 100_000_000
        while commands.contains(where: { $0 == nil }) && MonotonicClock.now() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
            commands = zip(left, commands).map { pid, command in command ?? settled(pid) }
        }
        let found = zip(left, commands).map { pid, command in (pid, command ?? ProcFS.commandLine(pid: pid), ProcFS.startTime(pid: pid)) }
        if let containment {
            containment.killAll()
        } else {
            for (pid, _, _) in found { _ = try? SystemCall.retrying("kill", subject: "\(pid)") { Glibc.kill(pid, SIGKILL) } }
        }
        let ended = MonotonicClock.now()
        for (pid, command, started) in found {
            stragglers.append(Straggler(pid: pid, command: command,
                                        livedSeconds: MonotonicClock.seconds(from: started ?? mainExit, to: ended),
                                        outlivedMainSeconds: MonotonicClock.seconds(from: mainExit, to: ended)))
        }
    }

    /// The containment facts, read once every process has ended and before the cgroup is removed.
    func finishContainment(mainProcesses: [Int32]) -> RunContainmentFacts {
        killEveryProcess()
        var facts = RunContainmentFacts(kind: containment?.kind.rawValue ?? "process-group", cgroupPath: containment?.path,
                                        cgroupUnavailable: containmentUnavailable, cgroupCPUSeconds: containment?.cpuSeconds,
                                        stragglers: stragglers)
        facts.spawn = (process as? ChildProcess)?.spawnPath
        guard let taskExitToken else {
            facts.taskExitsUnavailable = TaskExitMonitor.shared.unavailableReason ?? "taskstats unavailable"
            return facts
        }
        // The kernel queues a thread's record before its parent can reap it; give the listener a
        // moment to read the main processes' records.
        let (exits, lost) = TaskExitMonitor.shared.exits(token: taskExitToken, timeout: 1) { exits in
            mainProcesses.allSatisfy { pid in exits.contains { $0.tid == pid } }
        }
        let seen = sampler.otherProcesses
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

    /// Ends everything the run holds, once: idempotent, so `finish` and the runner's error path share it.
    func teardown() {
        if tornDown { return }
        tornDown = true
        if suspendedByFreezer { containment?.thaw() }
        killEveryProcess()
        _ = finishWakeupTrace()
        if case .success(let watch)? = resourceWatch { watch.stop() }
        sampler.stop()
        hangWatcher.stop()
        outsideWatcher?.stop()
        containment?.remove()
        network?.stop()
        _ = memory.finish(workloadKilledBySIGKILL: false, harnessKilled: true)
        taskExitToken.map(TaskExitMonitor.shared.endWatching)
        if !options.keepSandboxes { sandbox.remove() }
    }
}

/// Without a cgroup: the processes in a process group, found by scanning `/proc/*/stat`.
enum ProcessGroupScan {
    static func members(ofGroup group: pid_t) -> [pid_t] {
        var members: [pid_t] = []
        for name in (try? FileReader.directoryEntries("/proc")) ?? [] {
            guard let pid = pid_t(name), let text = try? FileReader.readText("/proc/\(name)/stat"),
                  let close = text.lastIndex(of: ")") else { continue }
            // After the command: state, ppid, pgrp.
            let fields = text[text.index(after: close)...].split(separator: " ")
            if fields.count > 2, pid_t(fields[2]) == group { members.append(pid) }
        }
        return members
    }
}
