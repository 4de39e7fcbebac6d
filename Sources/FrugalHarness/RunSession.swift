import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// One workload being driven through a scenario: its current process, event stream and sampler,
/// the processes before it (a relaunch starts a new one in the same sandbox), and what has
/// happened so far. Each step kind is carried out by a method; areas add their steps in
/// extensions (`RunSession+Lifecycle.swift`, ...), and `perform(_:index:)` finds the kind's
/// `StepPerformer` (`Steps/`).
final class RunSession {
    let options: HarnessOptions
    let plan: RunPlan
    let workload: String
    /// What starts the run's processes and the time its waits and watchdogs run on: the real
    /// ones, or a test's in-memory app and manual clock (`Seams/`).
    let launcher: any ProcessLauncher
    let clock: any HarnessClock
    /// The current process, its event stream, its `/proc` sampler and its hang watcher.
    private(set) var process: any AppProcess
    private(set) var reader: EventStreamReader
    private(set) var sampler: ProcSampler
    private(set) var hangWatcher: HangWatcher
    /// The app's home, kept across relaunches within the run.
    let sandbox: Sandbox
    /// The run's origin server and shaping proxy (`RunSession+Network.swift`), shared by every
    /// process of the run.
    let network: RunNetwork?
    /// The steps carried out so far.
    var steps: [StepRecord] = []
    /// The last control message's sequence number.
    var sequence = 0
    /// Set when the app's hello named another protocol version: the run ends and is not a finding.
    var protocolMismatch: ProtocolMismatch?
    /// Whether the scenario can go on, whether it asked for terminate, and the outcome the
    /// harness gave the run: changed only through its transitions (`RunEnding.swift`).
    var ending = RunEnding()
    /// Set when the harness ended the run (a watchdog, a timeout); nil lets the exit status decide.
    var outcome: RunOutcome? { ending.outcome }
    var outcomeDetail: String? { ending.detail }
    /// Whether the scenario asked the app to terminate.
    var terminated: Bool { ending.terminateRequested }
    /// Set by a step that ends the scenario early (a kill, a watchdog).
    var stopped: Bool { ending.stopped }
    /// Whether the current process was ended by the scenario's `kill` step (the system's kill, not a crash).
    var killedByScenario = false
    /// Whether the current process is suspended, how, and each suspension so far: changed only
    /// through its transitions (`SuspensionLedger.swift`).
    var suspension = SuspensionLedger()
    /// Whether the current process is stopped (suspended) by the harness.
    var isSuspended: Bool { suspension.isSuspended }
    /// State changes made by the harness, which is the system here: suspension, resumption, kills.
    var systemEvents: [WorkloadEvent] = []
    /// The processes that have ended, with what they reported and their final I/O
    /// (`ProcessArchive.swift`).
    var archive = ProcessArchive()
    /// The memory cgroup, pressure monitor and balloons (RunSession+Memory.swift), for the whole run.
    let memory: MemoryPressure
    /// The current process's registration with `options.interruption`, which kills it on SIGINT.
    var interruptionToken: Int?
    /// The current process and its sampler, published for callbacks on other threads (forwarded
    /// pressure warnings); only the session's thread sets it, at each spawn.
    let currentProcess = CurrentProcess()

    /// The run's cgroup (`Containment/RunCgroup+Linux.swift`): every process of the run, ended
    /// with it. Nil where none could be made (`containmentUnavailable` says why): the process
    /// group is used instead, which a program can leave (`setsid`).
    let containment: RunCgroup?
    let containmentUnavailable: String?
    /// The run among the runs going on, for the processes the harness adopts as their subreaper
    /// (`Containment/ChildSubreaper+Linux.swift`); nil for an in-memory app.
    let adoption: RunAdoption?
    /// This run's watch of the kernel's exit records, when the machine gives them.
    let taskExitToken: Int?
    /// Processes that outlived a main process of the run (ended by the harness).
    var stragglers: [Straggler] = []
    /// Whether the run is a black-box program (no FrugalKit protocol: signals and the freezer only).
    let isBlackBox: Bool
    /// What each process of the run execs, and its own environment: the workload host (the app
    /// named in its environment), the user's executable, or the program (its path resolved).
    let launchArguments: [String]
    let launchEnvironment: [String: String]
    /// Whether the current suspension is the cgroup freezer's (else SIGSTOP).
    var suspendedByFreezer: Bool { suspension.isFrozen }
    /// The black-box program's main thread watched from outside (`OutsideHangWatcher.swift`), and
    /// what the watchers of its ended processes saw (`OutsideWatchLog.swift`).
    var outsideWatch = OutsideWatchLog()
    /// The current process's hardware and sync-call counters (sync calls: black boxes only), and
    /// the finished processes' counts together: changed only through its transitions
    /// (`ProcessCounters.swift`).
    var counters = ProcessCounters()
    var tornDown = false
    /// The sandbox's file writes, the bundle's resource reads, the wakeup tracer and the energy
    /// counter, from before the first exec to the end: started and ended only through its
    /// transitions (`RunWatches.swift`).
    var watches: RunWatches

    /// `launchArguments` is the program's argv for a black-box run (its path resolved).
    init(plan: RunPlan, workload: String, options: HarnessOptions, launchArguments: [String]? = nil,
         launcher: any ProcessLauncher = SystemProcessLauncher(), clock: any HarnessClock = SystemClock()) throws {
        self.options = options
        self.plan = plan
        self.workload = workload
        self.launcher = launcher
        self.clock = clock
        // First, before anything is started: what the run starts is adopted as the run's.
        adoption = launcher.startsSystemProcesses ? RunAdoption() : nil
        if case .command = plan.target { isBlackBox = true } else { isBlackBox = false }
        let command = Self.launchCommand(plan, options: options)
        self.launchArguments = launchArguments ?? command.arguments
        launchEnvironment = command.environment
        // On a pure v2 machine a pressure run's memory group is v2 too, and a process is in one v2
        // group only: that group is then the run's group as well, made first.
        var memoryFirst: MemoryPressure?
        if launcher.startsSystemProcesses, case .success(let own) = MemoryCgroup.ownGroup(), own.0 == .v2 {
            let pressure = MemoryPressure(plan: plan, workload: workload, forwardKernelEvents: options.forwardKernelPressure)
            if pressure.cgroup != nil { memoryFirst = pressure }
        }
        if !launcher.startsSystemProcesses {
            // An in-memory app is no process of this machine: no cgroup could hold it.
            (containment, containmentUnavailable) = (nil, "the app is not a process of this machine")
        } else if let group = memoryFirst?.cgroup {
            (containment, containmentUnavailable) = (RunCgroup.adopting(v2MemoryGroup: group.path), nil)
        } else {
            switch RunCgroup.create(label: workload) {
            case .success(let group): (containment, containmentUnavailable) = (group, nil)
            case .failure(let error): (containment, containmentUnavailable) = (nil, error.description)
            }
        }
        taskExitToken = launcher.startsSystemProcesses ? TaskExitMonitor.shared.beginWatching() : nil
        do {
            sandbox = try Sandbox(parent: options.sandboxParent, workload: workload, resources: plan.bundleResources,
                                  documents: plan.documents)
        } catch {
            containment?.remove()
            _ = memoryFirst?.finish(workloadKilledBySIGKILL: false, harnessKilled: false)
            taskExitToken.map(TaskExitMonitor.shared.endWatching)
            throw HarnessError.sandbox(parent: options.sandboxParent.path, underlying: error)
        }
        let network: RunNetwork?
        do {
            // A scenario's own link and radio (frugal.yml's options) win over the run's defaults.
            // An in-memory app opens no socket: no origin or proxy is started for it. A built-in
            // workload speaks plain HTTP to FRUGAL_PROXY: only apps and programs get a CA (HTTPS).
            var builtIn = false
            if case .builtIn = plan.target { builtIn = true }
            network = launcher.startsSystemProcesses
                ? try RunNetwork(profile: plan.scenario.networkProfile.flatMap(NetworkProfile.named) ?? options.networkProfile,
                                 radio: plan.scenario.radio ?? options.radio,
                                 server: options.server.overridden(by: plan.server),
                                 trustDirectory: builtIn ? nil : options.sandboxParent)
                : nil
        } catch {
            sandbox.remove()
            containment?.remove()
            _ = memoryFirst?.finish(workloadKilledBySIGKILL: false, harnessKilled: false)
            taskExitToken.map(TaskExitMonitor.shared.endWatching)
            // RunNetwork names the server that failed and keeps its error.
            throw error
        }
        self.network = network
        let fileWatcher = SandboxFileWatcher.start(root: sandbox.root)
        memory = memoryFirst ?? MemoryPressure(plan: plan, workload: workload, forwardKernelEvents: options.forwardKernelPressure,
                                               pressureStallGroup: containment?.kind == .v2 ? containment?.path : nil)
        let energySession = Self.beginEnergy(options: options, launcher: launcher)
        let groupSyncs = Self.attachSyncCountersToGroup(blackBox: isBlackBox, containment: containment)
        let wakeupTracer = options.traceWakeups
            ? Self.startWakeupTracer(containment: containment, containmentUnavailable: containmentUnavailable) : nil
        // Watched before the first exec: what the app reads at launch is the point.
        var groupMembers: (@Sendable () -> [pid_t])?
        if let group = containment { groupMembers = { group.pids } }
        var started = RunWatches(files: fileWatcher,
                                  resources: launcher.startsSystemProcesses
                                     ? ResourceWatch.start(bundle: sandbox.root.appendingPathComponent(SandboxLayout.bundle), members: groupMembers)
                                     : nil,
                                  wakeups: wakeupTracer, energy: energySession)
        watches = started
        do {
            // Without counters on the group, the per-process ones are attached to the held process.
            let hardware: ProcessCounters.Hardware?, pidSyncs: ProcessCounters.Syncs?
            (process, reader, sampler, hangWatcher, hardware, pidSyncs) =
                try Self.spawn(arguments: self.launchArguments, trailingBytes: plan.rawArguments, ownEnvironment: launchEnvironment,
                               options: options, sandbox: sandbox, network: network, memory: memory, containment: containment,
                               launcher: launcher, clock: clock, countSyncs: isBlackBox && groupSyncs == nil)
            counters.attach(hardware: hardware, syncs: groupSyncs ?? pidSyncs)
        } catch {
            started.stopAll()
            if case .success(let syncs)? = groupSyncs { syncs.close() }
            network?.stop()
            sandbox.remove()
            _ = memory.finish(workloadKilledBySIGKILL: false, harnessKilled: false)
            containment?.remove()
            taskExitToken.map(TaskExitMonitor.shared.endWatching)
            throw error
        }
        registerForInterruption()
        currentProcess.value = (process, sampler)
        watches.follow(process.pid)
        if isBlackBox { startProgramWatch() }
        if !isBlackBox || programMemoryWarningSignal != nil { startMemoryMonitoring() }
    }

    /// An interrupt kills the current process (continued first if stopped), so the step waiting on
    /// it returns at once; the run then ends on its own thread (`checkInterruption`).
    private func registerForInterruption() {
        let process = process
        interruptionToken = options.interruption.register {
            process.kill(SIGCONT)
            process.kill(SIGKILL)
        }
    }

    /// Ends the scenario if the suite was interrupted: the run is recorded as `interrupted` and
    /// goes through `finish` like any other. Returns whether it was.
    func checkInterruption() -> Bool {
        guard let signal = options.interruption.signal else { return false }
        if outcome != .interrupted {
            ending.decide(.interrupted, detail: SuiteInterruption.detail(signal))
        }
        ending.stop()
        return true
    }

    /// Starts a new process of the same workload in the same sandbox; the current one must have exited.
    func respawn() throws {
        try archiveCurrentProcess()
        let groupSyncs = Self.attachSyncCountersToGroup(blackBox: isBlackBox, containment: containment)
        let hardware: ProcessCounters.Hardware?, pidSyncs: ProcessCounters.Syncs?
        do {
            (process, reader, sampler, hangWatcher, hardware, pidSyncs) =
                try Self.spawn(arguments: launchArguments, trailingBytes: plan.rawArguments, ownEnvironment: launchEnvironment,
                               options: options, sandbox: sandbox, network: network, memory: memory, containment: containment,
                               launcher: launcher, clock: clock, countSyncs: isBlackBox && groupSyncs == nil)
        } catch {
            if case .success(let syncs)? = groupSyncs { syncs.close() }
            throw error
        }
        counters.attach(hardware: hardware, syncs: groupSyncs ?? pidSyncs)
        watches.follow(process.pid)
        if isBlackBox { startProgramWatch() }
        registerForInterruption()
        currentProcess.value = (process, sampler)
        killedByScenario = false
        suspension.processReplaced()
    }

    /// Seconds as nanoseconds for deadlines, saturated at about 31 years so that `now + it`
    /// cannot overflow whatever a scenario or an option says (∞, 1e300, NaN is 0).
    static func nanoseconds(_ seconds: Double) -> UInt64 { min(UInt64(saturating: seconds * 1e9), 1_000_000_000_000_000_000) }

    /// Carries out one step by its kind's ``StepPerformer``; sets `stopped` when the scenario
    /// cannot go on.
    func perform(_ step: ScenarioStep, index: Int) {
        watches.settle()
        let start = index == 0 ? process.spawnTime : clock.now()
        guard let performer = StepPerformer.of(step.kind) else {
            // Refused at the start of the run (`ScenarioRunner`); a session driven directly says so.
            record(step, index: index, start: start, problem: "this build of frugal cannot carry out a \(step.kind.name) step")
            return
        }
        guard isBlackBox else { return performer.app(self, step, index, start) }
        guard let program = performer.program else {
            record(step, index: index, start: start,
                   problem: "not applicable to a black-box program: it has no FrugalKit event loop for the harness to deliver \(step) to")
            return
        }
        program(self, step, index, start)
    }

    /// Whether the scenario can go on to `step`: a process killed by the scenario can be relaunched.
    func canPerform(_ step: ScenarioStep) -> Bool {
        if stopped { return false }
        return !process.hasExited || killedByScenario
    }

    /// Records a step as done.
    func record(_ step: ScenarioStep, index: Int, start: UInt64, problem: String? = nil) {
        steps.append(StepRecord(index: index, step: step, start: start, end: clock.now(), problem: problem))
    }

    /// Sends a control message and waits for its acknowledgement; returns the problem, if any.
    func sendAndWait(_ command: ControlCommand, argument: String? = nil, until deadline: UInt64) -> String? {
        sequence += 1
        do {
            try process.send(ControlMessage(sequence: sequence, command: command, argument: argument))
        } catch {
            return "could not deliver \(command.rawValue): \(error)"
        }
        if reader.waitForAck(sequence, until: deadline) { return nil }
        if let error = reader.controlError(for: sequence) { return "the app could not carry out \(command.rawValue): \(error.problem)" }
        return process.hasExited ? "the workload exited before handling \(command.rawValue)"
            : "\(command.rawValue) not handled in time"
    }

    /// Kills the process group and records why.
    func kill(outcome: RunOutcome, detail: String) {
        if isSuspended { endSuspension(endedBy: "watchdog kill", continueProcess: false) }
        killEveryProcess()
        ending.decide(outcome, detail: detail)
        ending.stop()
    }
}

extension ResourceUsage {
    /// The totals of several processes: times and counts add up, the peak resident size is the largest.
    static func total(_ usages: [ResourceUsage]) -> ResourceUsage {
        usages.dropFirst().reduce(usages[0]) { sum, usage in
            ResourceUsage(userSeconds: sum.userSeconds + usage.userSeconds, systemSeconds: sum.systemSeconds + usage.systemSeconds,
                          voluntaryContextSwitches: sum.voluntaryContextSwitches + usage.voluntaryContextSwitches,
                          involuntaryContextSwitches: sum.involuntaryContextSwitches + usage.involuntaryContextSwitches,
                          maxResidentBytes: max(sum.maxResidentBytes, usage.maxResidentBytes),
                          majorFaults: sum.majorFaults + usage.majorFaults, minorFaults: sum.minorFaults + usage.minorFaults)
        }
    }
}

/// The run's current process and sampler, behind a lock: what other threads may see of a session.
final class CurrentProcess: Sendable {
    private let current = Mutex<(process: any AppProcess, sampler: ProcSampler)?>(nil)
    var value: (process: any AppProcess, sampler: ProcSampler)? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
