import Foundation
import FrugalCore
import FrugalProbe

/// One workload process being driven through a scenario: the process, its event stream, its
/// sampler, and what has happened so far. Each step kind is carried out by a method; areas add
/// their steps in extensions (`RunSession+Lifecycle.swift`, ...), and `perform(_:index:)` routes.
final class RunSession {
    let options: HarnessOptions
    let plan: RunPlan
    let workload: String
    let process: ChildProcess
    let reader: EventStreamReader
    let sampler: ProcSampler
    /// The app's home, kept across relaunches within the run.
    let sandbox: Sandbox
    /// The steps carried out so far.
    var steps: [StepRecord] = []
    /// The last control message's sequence number.
    var sequence = 0
    /// Set when the harness ended the run (a watchdog, a timeout); nil lets the exit status decide.
    var outcome: RunOutcome?
    var outcomeDetail: String?
    /// Whether the scenario asked the app to terminate.
    var terminated = false
    /// Set by a step that ends the scenario early (a kill, a watchdog).
    var stopped = false
    /// The memory cgroup, pressure monitor and balloons (RunSession+Memory.swift).
    let memory: MemoryPressure

    init(plan: RunPlan, workload: String, options: HarnessOptions) throws {
        self.options = options
        self.plan = plan
        self.workload = workload
        do {
            sandbox = try Sandbox(parent: options.sandboxParent, workload: workload, resources: plan.bundleResources)
        } catch {
            throw HarnessError("cannot create the app sandbox under \(options.sandboxParent.path): \(error)")
        }
        memory = MemoryPressure(plan: plan, workload: workload, forwardKernelEvents: options.forwardKernelPressure)
        do {
            process = try ChildProcess(arguments: [options.workloadHost, workload],
                                       environment: options.environment.merging(sandbox.environment) { $1 },
                                       cgroupProcs: memory.cgroup?.procsPaths ?? [],
                                       oomScoreAdjustment: memory.cgroup == nil ? nil : MemoryPressure.workloadOOMScore)
        } catch {
            sandbox.remove()
            _ = memory.finish(workloadKilledBySIGKILL: false, harnessKilled: false)
            throw HarnessError("cannot start the workload host \(options.workloadHost): \(error)")
        }
        reader = EventStreamReader(fd: process.eventFD)
        sampler = ProcSampler(pid: process.pid, interval: options.sampleInterval)
        sampler.start()
        startMemoryMonitoring()
    }

    static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }

    /// Carries out one step; sets `stopped` when the scenario cannot go on.
    func perform(_ step: ScenarioStep, index: Int) {
        let start = index == 0 ? process.spawnTime : MonotonicClock.now()
        switch step {
        case .launch: launch(index: index, start: start)
        case .wait(let seconds): wait(seconds, index: index, start: start)
        case .input(let kind): input(kind, index: index, start: start)
        case .terminate: terminate(index: index, start: start)
        case .memoryWarning(let level): memoryWarning(level, index: index, start: start)
        case .pressure(let limit): pressure(limit: limit, index: index, start: start)
        case .balloon(let bytes): balloon(bytes: bytes, index: index, start: start)
        }
    }

    /// Records a step as done.
    func record(_ step: ScenarioStep, index: Int, start: UInt64, problem: String? = nil) {
        steps.append(StepRecord(index: index, step: step, start: start, end: MonotonicClock.now(), problem: problem))
    }

    /// Sends a control message and waits for its acknowledgement; returns the problem, if any.
    func sendAndWait(_ command: ControlCommand, argument: String? = nil, until deadline: UInt64) -> String? {
        sequence += 1
        do {
            try process.send(ControlMessage(sequence: sequence, command: command, argument: argument))
        } catch {
            return "could not deliver \(command.rawValue): \(error)"
        }
        if reader.waitForAck(sequence, until: deadline, clock: MonotonicClock.now) { return nil }
        return process.hasExited ? "the workload exited before handling \(command.rawValue)"
            : "\(command.rawValue) not handled in time"
    }

    /// Kills the process group and records why.
    func kill(outcome: RunOutcome, detail: String) {
        process.kill(SIGKILL)
        self.outcome = outcome
        outcomeDetail = detail
        stopped = true
    }

    /// After the last step: ends the app if the scenario did not, reaps it, and builds the record.
    func finish() throws -> RunRecord {
        defer { if !options.keepSandboxes { sandbox.remove() } }
        if !terminated && !process.hasExited && outcome == nil {
            // The scenario ended without terminate: close the control pipe (the app ends itself on
            // EOF) and give it the terminate budget before killing it.
            process.closeControl()
            if process.waitForExit(until: MonotonicClock.now() + Self.nanoseconds(options.terminateWatchdog)) == nil {
                kill(outcome: .timedOut, detail: "did not exit within \(DisplayFormat.number(options.terminateWatchdog)) s after the scenario ended")
            }
        }
        guard let exit = process.waitForExit(until: MonotonicClock.now() + Self.nanoseconds(30)) else {
            _ = memory.finish(workloadKilledBySIGKILL: false, harnessKilled: true)
            throw HarnessError("workload \(workload) (pid \(process.pid)) could not be reaped after SIGKILL")
        }
        let memoryFacts = finishMemory(exit: exit.status)
        sampler.stop()
        reader.waitForEnd(until: MonotonicClock.now() + Self.nanoseconds(2), clock: MonotonicClock.now)
        if outcome == nil {
            (outcome, outcomeDetail) = ScenarioRunner.classify(exit.status, terminated: terminated)
        }
        var events = reader.snapshot
        for line in reader.malformedLines {
            events.append(WorkloadEvent(time: exit.time, body: .mark(Mark(name: "malformed-event", detail: line))))
        }
        var record = RunRecord(workload: workload, scenario: plan.scenario.name, repetition: plan.repetition,
                               startTime: process.spawnTime, endTime: exit.time, pid: process.pid, steps: steps,
                               events: events, samples: sampler.all, outcome: outcome ?? .crashed,
                               outcomeDetail: outcomeDetail, exitStatus: exit.status, resourceUsage: exit.usage)
        record.sandboxPath = sandbox.root.path
        record.memory = memoryFacts
        return record
    }
}
