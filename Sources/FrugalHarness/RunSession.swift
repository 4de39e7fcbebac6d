import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// One workload being driven through a scenario: its current process, event stream and sampler,
/// the processes before it (a relaunch starts a new one in the same sandbox), and what has
/// happened so far. Each piece of the run's mutable state has an owner with the transitions it
/// allows (`RunEnding`, `SuspensionLedger`, `ProcessArchive`, `ProcessCounters`, `RunWatches`,
/// `OutsideWatchLog`, `RunContainer`); the session holds them and the current process, and starts
/// and ends the run (`RunSession+Record.swift`). `perform(_:index:)` runs the step as its
/// kind declares, through `SessionStepHarness`, which routes each action to its area's steps
/// (`Steps/`: `SkeletonSteps`, `LifecycleSteps`, `ProgramSteps`, `MemorySteps`, `NetworkSteps`).
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
    /// The run's origin server and shaping proxy, shared by every process of the run.
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
    /// Whether the current process was ended by the scenario's `kill` step (the system's kill, not a crash).
    var killedByScenario = false
    /// Whether the current process is suspended, how, and each suspension so far: changed only
    /// through its transitions (`SuspensionLedger.swift`).
    var suspension = SuspensionLedger()
    /// State changes made by the harness, which is the system here: suspension, resumption, kills.
    var systemEvents: [WorkloadEvent] = []
    /// The processes that have ended, with what they reported and their final I/O
    /// (`ProcessArchive.swift`).
    var archive = ProcessArchive()
    /// The memory cgroup, pressure monitor and balloons (`Memory/`), for the whole run.
    let memory: MemoryPressure
    /// The current process's registration with `options.interruption`, which kills it on SIGINT.
    var interruptionHold = InterruptionHold()
    /// The current process and its sampler, published for callbacks on other threads (forwarded
    /// pressure warnings); only the session's thread sets it, at each spawn.
    let currentProcess = CurrentProcess()

    /// The run's cgroup, adoption, exit-record watch and sandbox, and what outlived a main
    /// process (`Containment/RunContainer.swift`).
    let container: RunContainer
    /// Whether the run is a black-box program (no FrugalKit protocol: signals and the freezer only).
    let isBlackBox: Bool
    /// What each process of the run execs, and its own environment: the workload host (the app
    /// named in its environment), the user's executable, or the program (its path resolved).
    let launchArguments: [String]
    let launchEnvironment: [String: String]
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
        let adoption = launcher.startsSystemProcesses ? RunAdoption() : nil
        if case .command = plan.target { isBlackBox = true } else { isBlackBox = false }
        let command = RunSpawn.launchCommand(plan, options: options)
        self.launchArguments = launchArguments ?? command.arguments
        launchEnvironment = command.environment
        let memoryFirst = MemoryPressure.v2First(plan: plan, workload: workload, options: options,
                                                 startsSystemProcesses: launcher.startsSystemProcesses)
        do {
            container = try RunContainer(workload: workload, plan: plan, options: options, adoption: adoption,
                                         startsSystemProcesses: launcher.startsSystemProcesses, memoryGroup: memoryFirst?.cgroup)
        } catch {
            _ = memoryFirst?.finish(workloadKilledBySIGKILL: false, harnessKilled: false)
            throw error
        }
        do {
            // An in-memory app opens no socket: no origin or proxy is started for it.
            network = launcher.startsSystemProcesses ? try RunNetwork.forRun(of: plan, options: options) : nil
        } catch {
            container.abandon()
            _ = memoryFirst?.finish(workloadKilledBySIGKILL: false, harnessKilled: false)
            // RunNetwork names the server that failed and keeps its error.
            throw error
        }
        let fileWatcher = SandboxFileWatcher.start(root: container.sandbox.root)
        memory = memoryFirst ?? MemoryPressure(plan: plan, workload: workload, forwardKernelEvents: options.forwardKernelPressure,
                                               pressureStallGroup: container.cgroup?.kind == .v2 ? container.cgroup?.path : nil)
        // The machine's energy counter before the first process starts; none for an in-memory app.
        let energySession = launcher.startsSystemProcesses ? options.energyMeter.begin() : nil
        let groupSyncs = container.syncCountersOnGroup(blackBox: isBlackBox)
        let wakeupTracer = options.traceWakeups ? container.startWakeupTracer() : nil
        // Watched before the first exec: what the app reads at launch is the point.
        var started = RunWatches(files: fileWatcher,
                                  resources: launcher.startsSystemProcesses
                                     ? ResourceWatch.start(bundle: container.sandbox.root.appendingPathComponent(SandboxLayout.bundle),
                                                           members: container.members)
                                     : nil,
                                  wakeups: wakeupTracer, energy: energySession)
        watches = started
        do {
            // Without counters on the group, the per-process ones are attached to the held process.
            let hardware: ProcessCounters.Hardware?, pidSyncs: ProcessCounters.Syncs?
            (process, reader, sampler, hangWatcher, hardware, pidSyncs) =
                try RunSpawn.spawn(arguments: self.launchArguments, trailingBytes: plan.rawArguments, ownEnvironment: launchEnvironment,
                                   options: options, sandbox: container.sandbox, network: network, memory: memory, containment: container.cgroup,
                                   launcher: launcher, clock: clock, countSyncs: isBlackBox && groupSyncs == nil)
            counters.attach(hardware: hardware, syncs: groupSyncs ?? pidSyncs)
        } catch {
            started.stopAll()
            if case .success(let syncs)? = groupSyncs { syncs.close() }
            network?.stop()
            _ = memory.finish(workloadKilledBySIGKILL: false, harnessKilled: false)
            container.abandon()
            throw error
        }
        interruptionHold.register(process, with: options.interruption)
        currentProcess.value = (process, sampler)
        watches.follow(process)
        if isBlackBox { startProgramWatch() }
        if !isBlackBox || programMemoryWarningSignal != nil {
            memory.startForwarding(to: currentProcess, programSignal: isBlackBox ? programMemoryWarningSignal : nil)
        }
    }

    /// Ends the scenario if the suite was interrupted: the run is recorded as `interrupted` and
    /// goes through `finish` like any other. Returns whether it was.
    func checkInterruption() -> Bool {
        guard let signal = options.interruption.signal else { return false }
        if ending.outcome != .interrupted {
            ending.decide(.interrupted, detail: SuiteInterruption.detail(signal))
        }
        ending.stop()
        return true
    }

    /// Starts a new process of the same workload in the same sandbox; the current one must have exited.
    func respawn() throws {
        try archiveCurrentProcess()
        let groupSyncs = container.syncCountersOnGroup(blackBox: isBlackBox)
        let hardware: ProcessCounters.Hardware?, pidSyncs: ProcessCounters.Syncs?
        do {
            (process, reader, sampler, hangWatcher, hardware, pidSyncs) =
                try RunSpawn.spawn(arguments: launchArguments, trailingBytes: plan.rawArguments, ownEnvironment: launchEnvironment,
                                   options: options, sandbox: container.sandbox, network: network, memory: memory, containment: container.cgroup,
                                   launcher: launcher, clock: clock, countSyncs: isBlackBox && groupSyncs == nil)
        } catch {
            if case .success(let syncs)? = groupSyncs { syncs.close() }
            throw error
        }
        counters.attach(hardware: hardware, syncs: groupSyncs ?? pidSyncs)
        watches.follow(process)
        if isBlackBox { startProgramWatch() }
        interruptionHold.register(process, with: options.interruption)
        currentProcess.value = (process, sampler)
        killedByScenario = false
        suspension.processReplaced()
    }

    /// Seconds as nanoseconds for deadlines, saturated at about 31 years so that `now + it`
    /// cannot overflow whatever a scenario or an option says (∞, 1e300, NaN is 0).
    static func nanoseconds(_ seconds: Double) -> UInt64 { min(UInt64(saturating: seconds * 1e9), 1_000_000_000_000_000_000) }

    /// Carries out one step as its kind declares (`StepKind.runForApp`, `runForProgram`), through
    /// the harness's actions for this step (`SessionStepHarness`); sets `stopped` when the
    /// scenario cannot go on.
    func perform(_ step: ScenarioStep, index: Int) {
        watches.settle()
        let start = index == 0 ? process.spawnTime : clock.now()
        let harness = SessionStepHarness(session: self, index: index, start: start)
        guard isBlackBox else { return step.kind.runForApp(step, harness) }
        guard let program = step.kind.runForProgram else {
            record(step, index: index, start: start,
                   problem: "not applicable to a black-box program: it has no FrugalKit event loop for the harness to deliver \(step) to")
            return
        }
        program(step, harness)
    }

    /// Whether the scenario can go on: not stopped, and the process running or killed by the
    /// scenario (a relaunch can follow).
    var canGoOn: Bool {
        if ending.stopped { return false }
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
        if suspension.isSuspended { endSuspension(endedBy: "watchdog kill", continueProcess: false) }
        killEveryProcess()
        ending.decide(outcome, detail: detail)
        ending.stop()
    }

    /// Ends the current suspension (`SuspensionLedger`): samples the stopped process one last
    /// time, then continues it (SIGCONT) unless it is about to be killed. Returns when it ended.
    @discardableResult
    func endSuspension(endedBy: String, continueProcess: Bool) -> UInt64 {
        let endSample = sampler.sampleNow()
        if isBlackBox {
            // Frozen or stopped, the program is continued the way it was suspended; a kill reaches
            // a frozen group too, so only continuing needs this.
            if continueProcess || suspension.isFrozen { ProgramSteps.resume(self) }
        } else if continueProcess {
            process.kill(SIGCONT)
        }
        let time = clock.now()
        suspension.ended(at: time, sample: endSample, endedBy: endedBy)
        if continueProcess {
            systemEvents.append(WorkloadEvent(time: time, body: .stateChanged(StateChange(from: .suspended, to: .background))))
        }
        hangWatcher.setPaused(false)
        return time
    }

    /// The run's processes other than the current main one (`RunContainer`).
    func otherProcesses() -> [pid_t] { container.otherProcesses(main: process) }

    /// SIGKILL to every process of the run (`RunContainer`).
    func killEveryProcess() { container.killEveryProcess(main: process) }

    /// Signals every process of the run (`RunContainer`).
    func signalEveryProcess(_ signal: Int32) { container.signalEveryProcess(signal, main: process) }

    /// The signal this program gets as its memory warning: its plan's, else the harness's; nil: none.
    var programMemoryWarningSignal: Int32? { plan.programMemoryWarningSignal ?? options.programMemoryWarningSignal }

    /// After a program's spawn: it has no control pipe, and its main thread is watched from outside.
    private func startProgramWatch() {
        process.closeControl()
        outsideWatch.watch(root: process.pid, group: container.cgroup)
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
