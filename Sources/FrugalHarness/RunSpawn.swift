import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// How a run's process is started: its command line, its environment (the sandbox's directories,
/// the proxy), its cgroups, and the counters attached before it execs. A `RunSession` starts
/// each of its processes here.
enum RunSpawn {
    /// The app's command line and its own environment: the workload host with the built-in's name,
    /// or the user's executable with its arguments and environment.
    static func launchCommand(_ plan: RunPlan, options: HarnessOptions) -> (arguments: [String], environment: [String: String]) {
        switch plan.target {
        case .builtIn(let name):
            return ([options.workloadHost], [FrugalProtocol.Environment.app: name])
        case .app(let app):
            return ([app.executable] + app.arguments, app.environment.merging([FrugalProtocol.Environment.app: app.name]) { $1 })
        case .command(let arguments):
            return (arguments, plan.programEnvironment)
        }
    }

    /// Starts `arguments` in `sandbox`, with its reader, sampler and hang watcher. Every process of
    /// the run joins the run's memory cgroup, if it has one, and the run's cgroup (last: on a
    /// hybrid machine that is the unified tree) before it execs.
    static func spawn(arguments: [String], trailingBytes: [[UInt8]]? = nil, ownEnvironment: [String: String],
                      options: HarnessOptions, sandbox: Sandbox, network: RunNetwork?, memory: MemoryPressure, containment: RunCgroup?,
                      launcher: any ProcessLauncher, clock: any HarnessClock, countSyncs: Bool) throws
        -> (any AppProcess, EventStreamReader, ProcSampler, HangWatcher, Result<any HardwareCounterSession, HardwareCountersUnavailable>?,
            Result<SyncCallSession, HardwareCountersUnavailable>?) {
        let process: any AppProcess
        let reader: EventStreamReader
        do {
            var environment = options.environment.merging(ownEnvironment) { $1 }
                .merging(sandbox.environment) { $1 }.merging(network?.environment ?? [:]) { _, proxy in proxy }
            // Every app finds its sandbox the Unix way too (a FrugalKit app through FRUGAL_SANDBOX
            // as well): its home, its temporary directory, and the XDG directories Foundation's
            // FileManager.urls(for:in:) reads on Linux, so NSTemporaryDirectory(), caches and
            // application support land in the run's sandbox and go with it, never in the machine's.
            environment.merge(sandboxDirectories(sandbox.root)) { $1 }
            if let peer = SlowPeer.shared { environment[SlowPeer.environmentVariable] = String(peer.port) }
            var groups = memory.cgroup?.procsPaths ?? []
            if let containment, !groups.contains(containment.procsPath) { groups.append(containment.procsPath) }
            (process, reader) = try launcher.launch(LaunchRequest(arguments: arguments, environment: environment, cgroupProcs: groups,
                                                                  birthCgroup: containment?.acceptsBirths == true ? containment?.path : nil,
                                                                  oomScoreAdjustment: memory.cgroup == nil ? nil : MemoryPressure.workloadOOMScore,
                                                                  trailingBytes: trailingBytes, privateFile: network?.privateFile,
                                                                  hold: true), clock: clock)
        } catch {
            throw HarnessError.spawn(program: arguments.first ?? "the app", underlying: error)
        }
        // The counters are attached to the held process before it execs, so they count all of
        // the program (a program started directly runs at once: its first fsyncs came before).
        let hardware = options.hardwareCounters.attach(pid: process.pid)
        let syncs = countSyncs ? SyncCallCounters().attach(pid: process.pid) : nil
        do {
            try process.release()
        } catch {
            for session in [hardware].compactMap({ try? $0.get() }) { session.close() }
            if let counters = try? syncs?.get() { counters.close() }
            throw HarnessError.spawn(program: arguments.first ?? "the app", underlying: error)
        }
        var members: (@Sendable () -> [pid_t])?
        if let containment { members = { containment.pids } }
        let sampler = ProcSampler(process: process, interval: options.sampleInterval, clock: clock, members: members)
        sampler.start()
        let main = process.pid
        let peers: Set<String> = SlowPeer.shared.map { ["127.0.0.1:\($0.port)"] } ?? []
        let others = members
        // The group's CPU time gates the looks only where the main process is the group's too
        // (born in it, or joined before its exec), as on cgroup v2.
        let usage = network != nil && containment?.kind == .v2 ? containment.flatMap { CgroupCPUUsage(groupPath: $0.path) } : nil
        network?.watchSockets(ignoring: peers, usage: usage) { [main] + (others?() ?? []).filter { $0 != main } }
        return (process, reader, sampler, HangWatcher(reader: reader, process: process), hardware, syncs)
    }

    /// The display server `environment` names for an X11 or Wayland client (`WAYLAND_DISPLAY`
    /// first, as toolkits try it first), as `NAME=value`; nil when it names none. Neither the
    /// sandbox nor the proxy sets these, so the harness's own environment and the run's decide.
    static func displayServer(in environment: [String: String]) -> String? {
        for name in ["WAYLAND_DISPLAY", "DISPLAY"] {
            if let value = environment[name], !value.isEmpty { return "\(name)=\(value)" }
        }
        return nil
    }

    /// HOME, TMPDIR and the XDG base directories, inside the sandbox at `root`.
    static func sandboxDirectories(_ root: URL) -> [String: String] {
        // CFFIXED_USER_HOME: CoreFoundation's home directory (NSHomeDirectory(), and the
        // Documents FileManager derives from it) comes from the password database, not HOME.
        ["HOME": root.path, "CFFIXED_USER_HOME": root.path,
         "TMPDIR": root.appendingPathComponent(SandboxLayout.tmp).path,
         "XDG_CACHE_HOME": root.appendingPathComponent(SandboxLayout.caches).path,
         "XDG_DATA_HOME": root.appendingPathComponent(SandboxLayout.applicationSupport).path,
         "XDG_CONFIG_HOME": root.appendingPathComponent(SandboxLayout.applicationSupport).path]
    }
}
