import Foundation
import FrugalCore
import FrugalProbe

/// Runs one plan: spawns the workload, carries out the scenario's steps, watches the guide's
/// watchdogs, samples `/proc` from outside, and returns everything as a `RunRecord`.
/// A workload that crashes, hangs or is killed is recorded, not thrown.
public final class ScenarioRunner {
    let options: HarnessOptions

    public init(options: HarnessOptions) { self.options = options }

    /// Runs `plan` to its end. Throws only when the harness itself cannot work (spawn failed).
    public func run(_ plan: RunPlan) throws -> RunRecord {
        switch plan.target {
        case .builtIn(let name):
            return try runApp(name: name, plan: plan)
        case .command(let arguments):
            return try runCommand(arguments, plan: plan)
        }
    }

    private func seconds(_ value: Double) -> UInt64 { UInt64(value * 1e9) }

    private func runApp(name: String, plan: RunPlan) throws -> RunRecord {
        guard plan.scenario.steps.first == .launch else {
            throw HarnessError("scenario '\(plan.scenario.name)' must start with launch")
        }
        let process: ChildProcess
        do {
            process = try ChildProcess(arguments: [options.workloadHost, name], environment: options.environment)
        } catch {
            throw HarnessError("cannot start the workload host \(options.workloadHost): \(error)")
        }
        let reader = EventStreamReader(fd: process.eventFD)
        let sampler = ProcSampler(pid: process.pid, interval: options.sampleInterval)
        sampler.start()
        var steps: [StepRecord] = []
        var sequence = 0
        var outcome: RunOutcome?
        var outcomeDetail: String?
        var terminated = false

        stepLoop: for (index, step) in plan.scenario.steps.enumerated() {
            let start = index == 0 ? process.spawnTime : MonotonicClock.now()
            if process.hasExited { break }
            switch step {
            case .launch:
                sequence += 1
                try? process.send(ControlMessage(sequence: sequence, command: .ping))
                let deadline = process.spawnTime + seconds(options.launchWatchdog)
                if !reader.waitForAck(sequence, until: deadline, clock: MonotonicClock.now) {
                    if process.hasExited { break stepLoop }
                    process.kill(SIGKILL)
                    outcome = .killedWatchdog
                    outcomeDetail = "launch watchdog: no event handled within \(DisplayFormat.number(options.launchWatchdog)) s of exec"
                        + Self.launchStage(reader.snapshot)
                    steps.append(StepRecord(index: index, step: step, start: start, end: MonotonicClock.now(), problem: outcomeDetail))
                    break stepLoop
                }
                steps.append(StepRecord(index: index, step: step, start: start, end: MonotonicClock.now()))
            case .wait(let duration):
                let end = start + seconds(duration)
                let startSample = sampler.settledSample(timeout: min(options.settleTimeout, duration))
                let phaseStart = startSample?.time ?? start
                let exited = process.waitForExit(until: end)
                let endSample = exited == nil ? sampler.sampleNow() : nil
                steps.append(StepRecord(index: index, step: step, start: start, end: MonotonicClock.now(),
                                        phaseStart: phaseStart, sampleAtStart: startSample,
                                        sampleAtEnd: endSample, problem: exited == nil ? nil : "the workload exited during the wait"))
                if exited != nil { break stepLoop }
            case .input(let kind):
                sequence += 1
                var problem: String?
                do {
                    try process.send(ControlMessage(sequence: sequence, command: .input, argument: kind))
                    if !reader.waitForAck(sequence, until: start + seconds(options.inputTimeout), clock: MonotonicClock.now) {
                        problem = process.hasExited ? "the workload exited before handling the input"
                            : "input not handled within \(DisplayFormat.number(options.inputTimeout)) s"
                    }
                } catch {
                    problem = "could not deliver the input: \(error)"
                }
                steps.append(StepRecord(index: index, step: step, start: start, end: MonotonicClock.now(), problem: problem))
            case .terminate:
                sequence += 1
                terminated = true
                try? process.send(ControlMessage(sequence: sequence, command: .terminate))
                if process.waitForExit(until: start + seconds(options.terminateWatchdog)) == nil {
                    process.kill(SIGKILL)
                    outcome = .killedWatchdog
                    outcomeDetail = "terminate watchdog: willTerminate did not return and exit within \(DisplayFormat.number(options.terminateWatchdog)) s"
                }
                steps.append(StepRecord(index: index, step: step, start: start, end: MonotonicClock.now(), problem: outcomeDetail))
                break stepLoop
            }
        }

        if !terminated && !process.hasExited && outcome == nil {
            // The scenario ended without terminate: close the control pipe (the app ends itself on
            // EOF) and give it the terminate budget before killing it.
            process.closeControl()
            if process.waitForExit(until: MonotonicClock.now() + seconds(options.terminateWatchdog)) == nil {
                process.kill(SIGKILL)
                outcome = .timedOut
                outcomeDetail = "did not exit within \(DisplayFormat.number(options.terminateWatchdog)) s after the scenario ended"
            }
        }
        guard let exit = process.waitForExit(until: MonotonicClock.now() + seconds(30)) else {
            throw HarnessError("workload \(name) (pid \(process.pid)) could not be reaped after SIGKILL")
        }
        sampler.stop()
        reader.waitForEnd(until: MonotonicClock.now() + seconds(2), clock: MonotonicClock.now)
        if outcome == nil {
            (outcome, outcomeDetail) = Self.classify(exit.status, terminated: terminated)
        }
        var events = reader.snapshot
        for line in reader.malformedLines {
            events.append(WorkloadEvent(time: exit.time, body: .mark(Mark(name: "malformed-event", detail: line))))
        }
        return RunRecord(workload: name, scenario: plan.scenario.name, repetition: plan.repetition,
                         startTime: process.spawnTime, endTime: exit.time, pid: process.pid, steps: steps,
                         events: events, samples: sampler.all, outcome: outcome ?? .crashed,
                         outcomeDetail: outcomeDetail, exitStatus: exit.status, resourceUsage: exit.usage)
    }

    /// How far launch got, from the events that came in before the watchdog fired.
    static func launchStage(_ events: [WorkloadEvent]) -> String {
        let handled = Set(events.compactMap { event -> String? in
            if case .handler(let handler) = event.body { return handler.name }
            return nil
        })
        if events.isEmpty { return " (the runtime never started)" }
        if !handled.contains("didFinishLaunching") { return " (still in didFinishLaunching)" }
        if !handled.contains("didBecomeActive") { return " (still in didBecomeActive)" }
        return " (the main run loop did not get to the first event)"
    }

    /// The outcome of a process that exited by itself.
    static func classify(_ status: ExitStatus, terminated: Bool) -> (RunOutcome, String?) {
        if let signal = status.signal {
            let name = String(cString: strsignal(signal))
            return signal == SIGKILL && !terminated
                ? (.crashed, "killed by signal \(signal) (\(name)) from outside the harness")
                : (.crashed, "killed by signal \(signal) (\(name))")
        }
        if let code = status.code {
            if code == 0 && terminated { return (.completed, nil) }
            if code == 0 { return (.crashed, "exited with status 0 before the scenario ended") }
            return (.crashed, "exited with status \(code)")
        }
        return (.crashed, "ended in an unknown way")
    }

    private func runCommand(_ arguments: [String], plan: RunPlan) throws -> RunRecord {
        guard let first = arguments.first else { throw HarnessError("no command given") }
        let path = first.contains("/") ? first : Self.which(first)
        guard let path else { throw HarnessError("command not found: \(first)") }
        let process: ChildProcess
        do {
            process = try ChildProcess(arguments: [path] + arguments.dropFirst(), environment: options.environment)
        } catch {
            throw HarnessError("cannot start \(first): \(error)")
        }
        process.closeControl()
        let reader = EventStreamReader(fd: process.eventFD)
        let sampler = ProcSampler(pid: process.pid, interval: options.sampleInterval)
        sampler.start()
        var outcome: RunOutcome?
        var detail: String?
        if process.waitForExit(until: process.spawnTime + seconds(options.commandTimeout)) == nil {
            process.kill(SIGKILL)
            outcome = .timedOut
            detail = "still running after \(DisplayFormat.number(options.commandTimeout)) s"
        }
        guard let exit = process.waitForExit(until: MonotonicClock.now() + seconds(30)) else {
            throw HarnessError("command \(first) (pid \(process.pid)) could not be reaped after SIGKILL")
        }
        sampler.stop()
        reader.waitForEnd(until: MonotonicClock.now() + seconds(1), clock: MonotonicClock.now)
        if outcome == nil {
            if exit.status.code == 0 { outcome = .completed } else { (outcome, detail) = Self.classify(exit.status, terminated: true) }
        }
        let step = StepRecord(index: 0, step: .launch, start: process.spawnTime, end: exit.time)
        return RunRecord(workload: plan.workloadName, scenario: "command", repetition: plan.repetition,
                         startTime: process.spawnTime, endTime: exit.time, pid: process.pid, steps: [step], events: [],
                         samples: sampler.all, outcome: outcome ?? .crashed, outcomeDetail: detail,
                         exitStatus: exit.status, resourceUsage: exit.usage, blackBox: true)
    }

    /// The first executable called `name` on `PATH`.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
