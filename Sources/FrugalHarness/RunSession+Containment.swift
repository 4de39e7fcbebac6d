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
        let members = containment.map { $0.pids } ?? ProcessGroupScan.members(ofGroup: process.pid)
        let escaped = EscapedProcessScan.carrying(sandbox.environment).filter { !members.contains($0) }
        var all = members + escaped
        all += adoptedProcesses().filter { !all.contains($0) }
        return all.filter { $0 != process.pid }
    }

    /// The run's processes by the parent chain, live: the main process's descendants and the
    /// harness's adopted orphans that are the run's, however they left the cgroup and the process
    /// group (`ChildSubreaper`). Their zombies are reaped here.
    func adoptedProcesses() -> [pid_t] {
        guard let adoption else { return [] }
        let found = ChildSubreaper.adopted(run: adoption.token, roots: [process.pid])
        ChildSubreaper.reapAdopted(found)
        return found.filter { !$0.zombie }.map(\.pid)
    }

    /// SIGKILL to the run's processes by the parent chain until none is left (`ChildSubreaper`).
    func endAdopted() {
        guard let adoption else { return }
        ChildSubreaper.endAdopted(run: adoption.token, roots: [process.pid])
    }

    /// SIGKILL to every process of the run: `cgroup.kill` (or the v1 freezer sweep), else the
    /// process group; any that left the cgroup but carries the run's sandbox; and every one the
    /// parent chain leads to (the main process's descendants, the run's adopted orphans).
    func killEveryProcess() {
        if let containment {
            containment.killAll()
        }
        process.kill(SIGKILL)
        killEscaped()
        endAdopted()
    }

    /// SIGKILL to the processes that carry this run's sandbox in their environment but are not
    /// in its cgroup: a program running as root wrote its pid into the root cgroup's
    /// `cgroup.procs` and a child it forked then outlived the run (issue 24, fresh probe).
    func killEscaped() {
        for pid in EscapedProcessScan.carrying(sandbox.environment) where pid != process.pid {
            _ = try? SystemCall.retrying("kill", subject: "\(pid)") { Glibc.kill(pid, SIGKILL) }
        }
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
            killEscaped()
        } else {
            for (pid, _, _) in found { _ = try? SystemCall.retrying("kill", subject: "\(pid)") { Glibc.kill(pid, SIGKILL) } }
        }
        endAdopted()
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
        watches.stopAll()
        sampler.stop()
        hangWatcher.stop()
        outsideWatch.current?.stop()
        containment?.remove()
        network?.stop()
        _ = memory.finish(workloadKilledBySIGKILL: false, harnessKilled: true)
        taskExitToken.map(TaskExitMonitor.shared.endWatching)
        if options.keepSandboxes { HarnessLeftovers.markKept(sandbox.root.path) } else { sandbox.remove() }
        adoption?.end()
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

/// Processes outside the run's cgroup and process group that still carry its sandbox
/// (`FRUGAL_SANDBOX=<the run's own path>`) in their environment, found by scanning
/// `/proc/*/environ`. A program can clear its environment; one that moved itself out of the
/// cgroup without doing so is found here.
enum EscapedProcessScan {
    /// The pids whose environment holds one of `environment`'s entries exactly, other than this process.
    static func carrying(_ environment: [String: String]) -> [pid_t] {
        guard let (name, value) = environment.first else { return [] }
        let needle = Array("\(name)=\(value)".utf8) + [0]
        var found: [pid_t] = []
        for entry in (try? FileReader.directoryEntries("/proc")) ?? [] {
            guard let pid = pid_t(entry), pid != getpid() else { continue }
            let fd = open("/proc/\(entry)/environ", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            // The first 256 KiB: the harness puts FRUGAL_SANDBOX in with the run's few variables.
            var bytes = [UInt8](repeating: 0, count: 256 << 10)
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            if contains(needle, in: bytes[..<count]) { found.append(pid) }
        }
        return found
    }

    /// Whether `needle` (an entry with its NUL) starts an entry of `environ` (NUL-separated).
    static func contains(_ needle: [UInt8], in environ: ArraySlice<UInt8>) -> Bool {
        var start = environ.startIndex
        while start < environ.endIndex {
            let end = environ[start...].firstIndex(of: 0).map { $0 + 1 } ?? environ.endIndex
            if environ[start..<end].elementsEqual(needle) { return true }
            start = end
        }
        return false
    }
}
