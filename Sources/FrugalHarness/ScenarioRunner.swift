import Foundation
import FrugalCore
import FrugalProbe

/// Runs one plan: spawns the workload, carries out the scenario's steps, watches the guide's
/// watchdogs, samples `/proc` from outside, and returns everything as a `RunRecord`.
/// A workload that crashes, hangs or is killed is recorded, not thrown.
public final class ScenarioRunner: Sendable {
    let options: HarnessOptions
    let launcher: any ProcessLauncher
    let clock: any HarnessClock

    public convenience init(options: HarnessOptions) {
        self.init(options: options, launcher: SystemProcessLauncher(), clock: SystemClock())
    }

    /// A runner whose apps are started by `launcher` and whose waits and watchdogs run on `clock`
    /// (a test's in-memory app and manual clock).
    init(options: HarnessOptions, launcher: any ProcessLauncher, clock: any HarnessClock) {
        self.options = options
        self.launcher = launcher
        self.clock = clock
    }

    /// Runs `plan` to its end. Throws only when the harness itself cannot work (spawn failed).
    ///
    /// A plan no scheduler gates (``RunPlan/stepGate`` nil: a test's run, `--jobs N`) holds the
    /// options' ``MachineGate``, if there is one, as its ``RunPlan/demand`` says
    /// (``MachineStepGate``): a plan that declares no demand holds it from before its launch to
    /// its end, and another process sharing the gate then starts nothing judged on time beside it.
    public func run(_ plan: RunPlan) throws -> RunRecord {
        guard plan.stepGate == nil, let machine = machineGate else { return try runUngated(plan) }
        // Interrupted while waiting for the gate: the run stops before its launch and is recorded
        // `interrupted`, as one the scheduler had not started would be.
        let gate = MachineStepGate(machine: machine, plan: plan, interruption: options.interruption)
        defer { gate.end() }
        var gated = plan
        gated.stepGate = gate
        return try runUngated(gated)
    }

    /// The gate of a real runner: a test's in-memory app and manual clock share no machine.
    private var machineGate: MachineGate? { launcher is SystemProcessLauncher ? options.machineGate : nil }

    private func runUngated(_ plan: RunPlan) throws -> RunRecord {
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
        return try runSession(plan: plan, workload: name, launchArguments: nil)
    }

    private func runSession(plan: RunPlan, workload: String, launchArguments: [String]?) throws -> RunRecord {
        guard plan.scenario.steps.first == .launch else {
            throw HarnessError.scenario(name: plan.scenario.name, problem: "must start with launch")
        }
        plan.stepGate?.willStart()
        let session = try RunSession(plan: plan, workload: workload, options: options, launchArguments: launchArguments,
                                     launcher: launcher, clock: clock)
        // However the run ends (a thrown error included), nothing of it is left behind: every
        // process of its cgroup, the cgroup, the proxy, the sandbox (finish tears down too).
        defer { session.teardown() }
        // Through the plan's step gate (StepGate.swift): a judged step waits for the machine.
        plan.performSteps(shouldStop: { _, _ in session.checkInterruption() || !session.canGoOn }) { index, step in
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

    /// A black-box program under any scenario, through the same session as an app: the same
    /// sandbox, cgroup, proxy, sampler and teardown.
    private func runCommand(_ arguments: [String], plan: RunPlan) throws -> RunRecord {
        guard let first = arguments.first else { throw HarnessError.commandNotFound(nil) }
        let path = first.contains("/") ? first : Self.which(first)
        guard let path else { throw HarnessError.commandNotFound(first) }
        return try runSession(plan: plan, workload: plan.workloadName, launchArguments: [path] + arguments.dropFirst())
    }

    /// The program a black-box command runs: `name` itself when it holds a `/`, else the first
    /// executable of that name on `PATH`; nil when there is none (bad input, checked before a run).
    public static func executable(_ name: String) -> String? {
        guard !name.isEmpty else { return nil }
        return name.contains("/") ? (isExecutableFile(name) ? name : nil) : which(name)
    }

    /// The first executable called `name` on `PATH`.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// A regular file this process may execute, as execvp looks for one: `access(X_OK)` alone
    /// is true of a directory, so `.` or `""` once "ran", exited 126 and replaced the report.
    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }
}
