import Foundation
import FrugalCore
import FrugalProbe

/// How a process ended: its status, the kernel's totals (nil when `wait4` failed: none is
/// invented) and when it was reaped (monotonic ns).
typealias ProcessExit = (status: ExitStatus, usage: ResourceUsage?, time: UInt64)

/// What the harness needs of an app it started: its control pipe, signals, its exit, and a look
/// at it from outside. `ChildProcess` is the real one; the tests have an in-memory app that
/// answers the control protocol as it is told.
protocol AppProcess: AnyObject, Sendable {
    var pid: pid_t { get }
    /// Monotonic ns when it was started: the run's time zero.
    var spawnTime: UInt64 { get }
    /// Whether it has exited and been reaped.
    var hasExited: Bool { get }
    /// Writes one control message; throws when the pipe is closed or the write fails.
    func send(_ message: ControlMessage) throws
    /// Sends `signal` to the process group.
    func kill(_ signal: Int32)
    /// Sends `signal` to the main thread alone (the hang watcher's request for a stack).
    func signalMainThread(_ signal: Int32)
    /// Waits until it exits or `deadline` (monotonic ns) passes; returns the exit if it came.
    func waitForExit(until deadline: UInt64) -> ProcessExit?
    /// Closes the harness's end of the control pipe (the app sees EOF and ends). Idempotent.
    func closeControl()
    /// Its I/O counters as they stood when it exited, once it has.
    var finalIO: ProcessIOCounters? { get }
    /// Its main thread's status as it stood when it exited, once it has.
    var finalMainThreadStatus: ProcFS.Status? { get }
    /// Its `rchar` (bytes passed by `read()`) as it stood when it exited, once it has.
    var finalCharactersRead: Int? { get }
    /// Its threads and memory at `time`, read from outside (`/proc/<pid>`); nil once it is gone.
    func sample(at time: UInt64) -> ProcessSample?
    /// Lets a process started held (``LaunchRequest/hold``) run; throws when it could not start.
    func release() throws
    /// Its main thread's voluntary switches before its exec (the harness's setup in the held
    /// child), once released; nil when not known.
    var voluntarySwitchesBeforeExec: Int? { get }
    /// Whether thread `tid` (of it or of another process of the run) is asleep and off the run
    /// queue; nil when that cannot be told.
    func isOffRunQueue(tid: Int32) -> Bool?
}

extension AppProcess {
    /// Nothing to release: the process started running when it was launched.
    func release() throws {}

    /// Not held, so nothing of the harness ran in it before its exec.
    var voluntarySwitchesBeforeExec: Int? { nil }

    /// Not known: a test double's reads are not the kernel's.
    var finalCharactersRead: Int? { nil }

    /// Whether thread `tid` is off the CPU and off the run queue (``ProcFS/isOffRunQueue(tid:)``);
    /// nil when that cannot be told (a test double's threads are not the kernel's).
    func isOffRunQueue(tid: Int32) -> Bool? { nil }
}

/// What to start: the program and its arguments, its environment (added to the harness's own),
/// the cgroups it joins before exec, its `oom_score_adj`, and raw trailing argument bytes.
struct LaunchRequest: Sendable {
    var arguments: [String]
    var environment: [String: String]
    var cgroupProcs: [String] = []
    /// A cgroup v2 directory among `cgroupProcs`' groups that the process is born in (clone3
    /// `CLONE_INTO_CGROUP`) rather than moved into.
    var birthCgroup: String?
    var oomScoreAdjustment: Int?
    var trailingBytes: [[UInt8]]?
    /// A file the app's processes see in place of a system one, in their own mount namespace
    /// (the run's CA bundle over the system's; ``RunTrust``). Nil: the host's view.
    var privateFile: PrivateFile?
    /// Hold a process started directly in its cgroups just before its exec until
    /// `AppProcess.release()`, so that counters attached to its pid see all of the program.
    var hold = false
}

/// A file bind-mounted, for one run's processes only, over another path.
struct PrivateFile: Sendable, Equatable {
    /// The file the processes see.
    var source: String
    /// The path where they see it.
    var target: String
}

/// Starts the app processes of a run. The harness takes one (the real `SystemProcessLauncher`
/// by default), so that its watchdogs and suspension can be tested against an in-memory app.
protocol ProcessLauncher: Sendable {
    /// Whether what it starts are processes of this machine, which the run's cgroup, `/proc`
    /// scans and the kernel's exit records can see. An in-memory app has none of these.
    var startsSystemProcesses: Bool { get }
    /// Starts the app, with the reader of its event stream on `clock`.
    func launch(_ request: LaunchRequest, clock: any HarnessClock) throws -> (process: any AppProcess, events: EventStreamReader)
}

/// Real processes: started directly in their cgroups (`ChildProcess+DirectSpawn.swift`), else
/// `posix_spawn`, with the control and event pipes (`ChildProcess+Linux.swift`).
struct SystemProcessLauncher: ProcessLauncher {
    var startsSystemProcesses: Bool { true }

    func launch(_ request: LaunchRequest, clock: any HarnessClock) throws -> (process: any AppProcess, events: EventStreamReader) {
        let process = try ChildProcess(arguments: request.arguments, environment: request.environment, cgroupProcs: request.cgroupProcs,
                                       birthCgroup: request.birthCgroup, oomScoreAdjustment: request.oomScoreAdjustment, trailingBytes: request.trailingBytes,
                                       privateFile: request.privateFile, hold: request.hold)
        return (process, EventStreamReader(fd: process.eventFD, clock: clock))
    }
}
