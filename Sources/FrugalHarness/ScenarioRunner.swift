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
        case .app(let app):
            return try runApp(name: app.name, plan: plan)
        case .command(let arguments):
            return try runCommand(arguments, plan: plan)
        }
    }

    private func seconds(_ value: Double) -> UInt64 { RunSession.nanoseconds(value) }

    private func runApp(name: String, plan: RunPlan) throws -> RunRecord {
        guard plan.scenario.steps.first == .launch else {
            throw HarnessError("scenario '\(plan.scenario.name)' must start with launch")
        }
        let session = try RunSession(plan: plan, workload: name, options: options)
        // The run's origin and proxy stop however the run ends (finish stops them too).
        defer { session.network?.stop() }
        for (index, step) in plan.scenario.steps.enumerated() {
            if !session.canPerform(step) { break }
            session.perform(step, index: index)
        }
        let record = try session.finish()
        if let mismatch = session.protocolMismatch { throw mismatch }
        return record
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
        // A black-box program may use the proxy too (raw sockets read FRUGAL_PROXY).
        let network = try RunNetwork(profile: options.networkProfile, radio: options.radio)
        defer { network.stop() }
        do {
            process = try ChildProcess(arguments: [path] + arguments.dropFirst(),
                                       environment: options.environment.merging(network.environment) { _, proxy in proxy })
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
        let networkRecord = network.finish(spawnTime: process.spawnTime)
        sampler.stop()
        reader.waitForEnd(until: MonotonicClock.now() + seconds(1), clock: MonotonicClock.now)
        if outcome == nil {
            if exit.status.code == 0 { outcome = .completed } else { (outcome, detail) = Self.classify(exit.status, terminated: true) }
        }
        let step = StepRecord(index: 0, step: .launch, start: process.spawnTime, end: exit.time)
        var record = RunRecord(workload: plan.workloadName, scenario: "command", repetition: plan.repetition,
                         startTime: process.spawnTime, endTime: exit.time, pid: process.pid, steps: [step], events: [],
                         samples: sampler.all, outcome: outcome ?? .crashed, outcomeDetail: detail,
                         exitStatus: exit.status, resourceUsage: exit.usage, blackBox: true, network: networkRecord)
        record.finalIO = process.finalIO
        return record
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
