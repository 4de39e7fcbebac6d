import Foundation
import FrugalCore
import FrugalProbe
import CFrugalSystem

/// A workload process spawned by the harness, with its control and event pipes.
///
/// The child gets the control pipe's read end on fd 3 and the event pipe's write end on fd 4
/// (`FRUGAL_CONTROL_FD`, `FRUGAL_EVENT_FD`); it runs in its own process group so that a kill
/// reaches whatever it started. One thread reaps it with `wait4`, which also gives the kernel's
/// totals for the whole process, dead threads included.
// @unchecked: the exit facts and `controlClosed` are read and written only holding `condition`
// (an NSCondition: callers wait for the exit on it); `stubWrites` is set in init, before the
// reaper thread starts, and only read after.
final class ChildProcess: AppProcess, @unchecked Sendable {
    let pid: pid_t
    /// Monotonic ns once the program has exec'd (the spawn, or for a held child its release,
    /// returns then): the run's time zero.
    var spawnTime: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return startTime
    }
    private var startTime: UInt64
    /// A held child's handle until `release` (``frugal_spawn_direct``'s `hold`).
    private var holdHandle: UnsafeMutableRawPointer?
    /// The `oom_score_adj` this process gives the child after its exec (direct spawns only).
    private let oomScoreAfterExec: Int?
    /// How it was started and joined its cgroups (``SpawnPath``): a fact of the run.
    let spawnPath: String
    /// The harness's end of the control pipe.
    let controlFD: Int32
    /// The harness's end of the event pipe.
    let eventFD: Int32
    private let condition = NSCondition()
    /// The exit once reaped; `usage` is nil when `wait4` failed, so no total is invented.
    private var exit: (status: ExitStatus, usage: ResourceUsage?, time: UInt64)?
    private var exitIO: ProcessIOCounters?
    /// `rchar` at the exit (every `read()` of the process and of the children it reaped).
    private var exitCharactersRead: Int?
    private var exitMainThread: ProcFS.Status?
    /// The spawn stub's own writes (its pid to each `cgroup.procs`, the `oom_score_adj`): they
    /// count in the process's `wchar`/`syscw` (which survive exec), but they are the harness's.
    private var stubWrites: (bytes: Int, calls: Int) = (0, 0)
    /// The held child's voluntary switches before its exec (its setup: joining groups, closing
    /// fds), read by the child itself just before its execve: the harness's work in the program's
    /// thread, not the program's. Nil for a child that was not held (or did not report).
    private var switchesBeforeExec: Int?
    private var controlClosed = false
    /// Held for a whole control message, and by `closeControl`: messages from two threads (a
    /// scenario step, a forwarded pressure warning) never interleave, and the descriptor is never
    /// closed (and its number reused by another run) in the middle of a write.
    private let sendLock = NSLock()

    /// Spawns `arguments[0]` (a path) with `arguments` and `environment` added to the harness's own.
    ///
    /// With `cgroupProcs` or `oomScoreAdjustment`, the program is started directly in its cgroups
    /// (``frugal_spawn_direct``): born in `birthCgroup` (a v2 directory whose `cgroup.procs` is one
    /// of `cgroupProcs`) by clone3 `CLONE_INTO_CGROUP`, and moved into the others (v1 memory) and
    /// given its `oom_score_adj` by the child itself before its exec, so every page the program
    /// touches is charged to the cgroup (v1 does not move charges made before a move) and no stub
    /// process adds its time or wakeups to the program's. `FRUGAL_SPAWN=shell` brings back the old
    /// path: `/bin/sh` joins the groups, then execs the program with the same pid.
    /// `trailingBytes`, when given, replaces the last arguments byte for byte (a program's
    /// arguments need not be UTF-8; a `String` cannot hold them). `privateFile`, when given, is
    /// bind-mounted over its target in a mount namespace of the child's own (its descendants share it).
    /// `hold`: a child started directly is held just before its exec until `release()`, so that
    /// counters attached to its pid (perf events) count all of the program.
    init(arguments: [String], environment: [String: String], cgroupProcs: [String] = [], birthCgroup: String? = nil,
         oomScoreAdjustment: Int? = nil, trailingBytes: [[UInt8]]? = nil, privateFile: PrivateFile? = nil, hold: Bool = false) throws {
        var arguments = arguments
        let joining = !cgroupProcs.isEmpty || oomScoreAdjustment != nil
        let shellStub = joining && ProcessInfo.processInfo.environment[SpawnPath.variable] == SpawnPath.shellValue
        if shellStub {
            let script = #"adj="$1"; shift; while [ "$1" != "--" ]; do echo $$ > "$1" || exit 125; shift; done; shift; "#
                + #"if [ -n "$adj" ]; then echo "$adj" > /proc/self/oom_score_adj || exit 125; fi; exec "$@""#
            arguments = ["/bin/sh", "-c", script, "frugal-spawn", oomScoreAdjustment.map(String.init) ?? ""] + cgroupProcs + ["--"] + arguments
        }
        var controlPipe: [Int32] = [-1, -1]
        var eventPipe: [Int32] = [-1, -1]
        try SystemCall.retrying("pipe2", subject: "control") { frugal_pipe_cloexec(&controlPipe) }
        try SystemCall.retrying("pipe2", subject: "events") { frugal_pipe_cloexec(&eventPipe) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the target, so only fds 3 and 4 reach the child.
        posix_spawn_file_actions_adddup2(&actions, controlPipe[0], FrugalProtocol.controlFD)
        posix_spawn_file_actions_adddup2(&actions, eventPipe[1], FrugalProtocol.eventFD)
        // What the app or program prints goes to the harness's standard error, beside its
        // progress: the harness's standard output is its own (`--json-stdout`, annotations).
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        // Nothing else of the harness's reaches the app: a listening socket it inherited would be
        // counted as the app's (lifecycle.close-listeners) and keep the port open after the run.
        let closing = frugal_spawn_close_from(&actions, 5)
        guard closing == 0 else { throw SystemCallError(call: "posix_spawn_file_actions_addclosefrom_np", errno: closing) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        merged[FrugalProtocol.Environment.controlFD] = String(FrugalProtocol.controlFD)
        merged[FrugalProtocol.Environment.eventFD] = String(FrugalProtocol.eventFD)
        merged[FrugalProtocol.Environment.protocolVersion] = String(FrugalProtocol.version)
        var argumentBytes = arguments.map { Array($0.utf8) }
        if let trailingBytes, trailingBytes.count <= argumentBytes.count {
            argumentBytes.replaceSubrange((argumentBytes.count - trailingBytes.count)..., with: trailingBytes)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = argumentBytes.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBufferPointer { UnsafeMutableRawPointer(copy).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { $0?.deallocate() }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        var handle: UnsafeMutableRawPointer?
        var failedCall: UnsafePointer<CChar>?
        var path = shellStub ? SpawnPath.shellStub : SpawnPath.posixSpawn
        var writtenGroups = cgroupProcs.count
        // The harness is the subreaper of what its runs start: its own child is recorded as such
        // before any search for adopted processes can see it (ChildSubreaper).
        ChildSubreaper.gate.lock()
        let status = if joining && !shellStub {
            Self.spawnDirect(path: arguments[0], argv: argv, envp: envp,
                             dups: [(controlPipe[0], FrugalProtocol.controlFD), (eventPipe[1], FrugalProtocol.eventFD), (STDERR_FILENO, STDOUT_FILENO)],
                             cgroupProcs: cgroupProcs, birthCgroup: birthCgroup, oomScoreAdjustment: nil,
                             privateFile: privateFile, hold: hold, pid: &pid, handle: &handle, failedCall: &failedCall, path: &path,
                             writtenGroups: &writtenGroups)
        } else if let privateFile {
            frugal_spawn_with_private_file(&pid, arguments[0], &actions, &attributes, argv, envp, privateFile.source, privateFile.target, &failedCall)
        } else {
            posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        }
        let spawned = MonotonicClock.now()
        if pid > 0 { ChildSubreaper.spawned(pid) }
        ChildSubreaper.gate.unlock()
        // The child's ends, now its own (or nobody's): a failed close leaves nothing to undo.
        try? SystemCall.close(controlPipe[0], subject: "control pipe")
        try? SystemCall.close(eventPipe[1], subject: "event pipe")
        guard status == 0 else {
            try? SystemCall.close(controlPipe[1], subject: "control pipe")
            try? SystemCall.close(eventPipe[0], subject: "event pipe")
            let call = failedCall.map { String(cString: $0) } ?? "posix_spawn"
            throw SystemCallError(call: call, subject: ["posix_spawn", "execve"].contains(call) ? arguments[0] : call.hasPrefix("mount") || call == "unshare" ? privateFile?.target : nil,
                                  errno: status)
        }
        self.pid = pid
        self.startTime = spawned
        self.holdHandle = handle
        self.spawnPath = path
        self.controlFD = controlPipe[1]
        self.eventFD = eventPipe[0]
        // The direct child shares this process's memory until its exec (CLONE_VM), and the kernel
        // gives an oom_score_adj written by one process to every process sharing its memory: the
        // child's own write made the harness the OOM killer's first choice. This process writes
        // the child's once it has exec'd: now (the spawn waited for the exec), or at its release.
        self.oomScoreAfterExec = joining && !shellStub ? oomScoreAdjustment : nil
        if joining && !shellStub && !hold { applyOOMScoreAfterExec() }
        if joining {
            // `echo $$ > FILE` (or the direct child's same write): one write of the pid and a
            // newline per group joined by writing; the stub's `echo "$adj"` likewise. A group the
            // child was born in cost it no write.
            let adjustment = shellStub ? oomScoreAdjustment.map { String($0).utf8.count + 1 } : nil
            stubWrites = (writtenGroups * (String(pid).utf8.count + 1) + (adjustment ?? 0),
                          writtenGroups + (adjustment == nil ? 0 : 1))
        }
        // A workload that dies must not kill the harness through a write to its closed pipe.
        signal(SIGPIPE, SIG_IGN)
        let reaper = Thread { [self] in reap() }
        reaper.name = "frugal-reaper-\(pid)"
        reaper.start()
    }

    private func reap() {
        // Reaped (or gone): the pid is no longer this harness's child.
        defer { ChildSubreaper.reaped(pid) }
        // Wait for the exit without reaping, so /proc/<pid>/io still holds the final totals
        // (writes made in the last moments before exit, which no periodic sample saw).
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        // The exit's time is when the harness learnt of it, before the reads below.
        let exited = MonotonicClock.now()
        let ioFields = (try? FileReader.readText("/proc/\(pid)/io")).map(ProcFS.parseIO)
        let io = ioFields.map { ProcessIOCounters(time: MonotonicClock.now(), fields: $0) }
        // The zombie's status is its main thread's, with the final context-switch counts.
        let mainThread = (try? FileReader.readText("/proc/\(pid)/status")).map(ProcFS.parseStatus)
        condition.lock()
        exitIO = io
        exitCharactersRead = ioFields?["rchar"]
        exitMainThread = mainThread
        condition.unlock()
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let result = wait4(pid, &status, 0, &usage)
            if result == pid { break }
            if result < 0 && errno == EINTR { continue }
            condition.lock()
            exit = (ExitStatus(), nil, MonotonicClock.now())
            condition.broadcast()
            condition.unlock()
            return
        }
        let exitStatus: ExitStatus
        // WIFEXITED / WTERMSIG by hand: the macros do not import into Swift.
        if status & 0x7f == 0 {
            exitStatus = ExitStatus(code: (status >> 8) & 0xff)
        } else {
            exitStatus = ExitStatus(signal: status & 0x7f)
        }
        condition.lock()
        exit = (exitStatus, ResourceUsage(usage), exited)
        condition.broadcast()
        condition.unlock()
    }

    /// Lets a held child exec (no-op for one that was not held) and waits until it has; the run's
    /// time zero is then. Throws the failed call of its setup or exec (the child is reaped).
    func release() throws {
        condition.lock()
        let handle = holdHandle
        holdHandle = nil
        condition.unlock()
        guard let handle else { return }
        var failedCall: UnsafePointer<CChar>?
        // Time zero is the release: the program's exec and all after it are its own time; the
        // moment this thread wakes after the exec is the scheduler's (late on a loaded machine).
        // Beside CPU hogs the setup before the hold slept on locks (`sleep 0.003` read 10
        // wakeups): the child reads its own count just before its execve, so the program's count
        // starts there (a read of /proc from here could come before the setup had ended).
        let released = MonotonicClock.now()
        var before = -1
        let status = frugal_direct_release(handle, pid, &before, &failedCall)
        condition.lock()
        startTime = released
        switchesBeforeExec = before >= 0 ? before : nil
        condition.unlock()
        guard status == 0 else {
            throw SystemCallError(call: failedCall.map { String(cString: $0) } ?? "execve", subject: nil, errno: status)
        }
        applyOOMScoreAfterExec()
    }

    /// The child's `oom_score_adj`, written from here once it has exec'd (see `init`). Raising
    /// another process's of the same user needs no privilege; a child already gone is left.
    private func applyOOMScoreAfterExec() {
        guard let adjustment = oomScoreAfterExec else { return }
        let fd = open("/proc/\(pid)/oom_score_adj", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let text = Array("\(adjustment)\n".utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        _ = Glibc.close(fd)
    }

    /// Whether the process has exited and been reaped.
    var hasExited: Bool {
        condition.lock()
        defer { condition.unlock() }
        return exit != nil
    }

    /// Waits until the process exits or `deadline` (monotonic ns) passes; returns the exit if it came.
    func waitForExit(until deadline: UInt64) -> (status: ExitStatus, usage: ResourceUsage?, time: UInt64)? {
        condition.lock()
        defer { condition.unlock() }
        while exit == nil {
            let now = MonotonicClock.now()
            if now >= deadline { return nil }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
        }
        return exit
    }

    /// `/proc/<pid>/io` as it stood when the process exited, once it has, less the spawn stub's writes.
    var finalIO: ProcessIOCounters? {
        condition.lock()
        defer { condition.unlock() }
        guard var io = exitIO else { return nil }
        io.charactersWritten = io.charactersWritten.map { max(0, $0 - stubWrites.bytes) }
        io.writeSyscalls = io.writeSyscalls.map { max(0, $0 - stubWrites.calls) }
        return io
    }

    /// `rchar` as it stood when the process exited, once it has (the harness reaps it right
    /// after, and its bytes then join the harness's own).
    var finalCharactersRead: Int? {
        condition.lock()
        defer { condition.unlock() }
        return exitCharactersRead
    }

    /// The main thread's `/proc/<pid>/status` as it stood when the process exited, once it has.
    var finalMainThreadStatus: ProcFS.Status? {
        condition.lock()
        defer { condition.unlock() }
        guard var status = exitMainThread else { return nil }
        status.voluntaryContextSwitches = status.voluntaryContextSwitches.map { max(0, $0 - (switchesBeforeExec ?? 0)) }
        return status
    }

    /// The main thread's voluntary switches before its exec (``switchesBeforeExec``).
    var voluntarySwitchesBeforeExec: Int? {
        condition.lock()
        defer { condition.unlock() }
        return switchesBeforeExec
    }

    /// Sends `signal` to the process group.
    func kill(_ signal: Int32) {
        guard !hasExited else { return }
        // ESRCH: the group or the process is gone already, which is what a kill wants.
        _ = try? SystemCall.retrying("kill", subject: "group \(pid)") { Glibc.kill(-pid, signal) }
        _ = try? SystemCall.retrying("kill", subject: "\(pid)") { Glibc.kill(pid, signal) }
    }

    /// Sends `signal` to the main thread (its tid is the pid); ESRCH once it is gone.
    func signalMainThread(_ signal: Int32) {
        guard !hasExited else { return }
        _ = try? SystemCall.retrying("tgkill", subject: "\(pid)") { frugal_tgkill(pid, pid, signal) }
    }

    /// `/proc/<pid>` read from the harness: its threads, memory and I/O; its memory by kind
    /// (`smaps_rollup`) only once it has run ``ProcFS/addressSpaceQuietAfterStart``, so the
    /// harness never holds its address space's lock while its loader maps it.
    func sample(at time: UInt64) -> ProcessSample? {
        try? ProcFS.sample(pid: pid, time: time, memoryBreakdown: time >= spawnTime + ProcFS.addressSpaceQuietAfterStart)
    }

    /// From `/proc/<tid>/wchan` (``ProcFS/isOffRunQueue(tid:)``).
    func isOffRunQueue(tid: Int32) -> Bool? { ProcFS.isOffRunQueue(tid: tid) }

    /// Writes one control message; throws when the pipe is closed or the write fails.
    func send(_ message: ControlMessage) throws {
        sendLock.lock()
        defer { sendLock.unlock() }
        condition.lock()
        let closed = controlClosed
        condition.unlock()
        guard !closed else { throw HarnessError.controlPipeClosed }
        var line = try JSONEncoder().encode(message)
        line.append(UInt8(ascii: "\n"))
        try line.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = try SystemCall.retrying("write", subject: "control pipe") {
                    Glibc.write(controlFD, raw.baseAddress! + offset, raw.count - offset)
                }
                offset += written
            }
        }
    }

    /// Closes the harness's end of the control pipe (the app sees EOF and ends). Only once: a
    /// second close could hit the same number reused by another run's pipe and end that app.
    func closeControl() {
        sendLock.lock()
        defer { sendLock.unlock() }
        condition.lock()
        defer { condition.unlock() }
        guard !controlClosed else { return }
        controlClosed = true
        try? SystemCall.close(controlFD, subject: "control pipe")
    }

    deinit {
        if let holdHandle {
            // Never released (the run failed before it could start): end the held child.
            _ = Glibc.kill(pid, SIGKILL)
            frugal_direct_abandon(holdHandle)
        }
        closeControl()
        try? SystemCall.close(eventFD, subject: "event pipe")
    }
}
