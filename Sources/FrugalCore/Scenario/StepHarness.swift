/// What the harness can do for a step, as a step kind sees it: the actions a kind's declaration
/// (``StepKind/runForApp``, ``StepKind/runForProgram``) is written in, so a kind says in its own
/// FrugalCore file how it runs, while the I/O stays in FrugalHarness (FrugalCore does none).
///
/// Each action is one of the harness's own, carried out for the step being run: it does the
/// thing, waits what the thing waits for (an acknowledgement, a watchdog, a background time),
/// and records what happened as a `StepRecord` under the step's index, with a problem when it
/// failed. The first action of a step starts at the step's start (for the launch, the exec);
/// each later one at the moment it is called. An action that ends the scenario (a watchdog
/// kill, the workload's exit) leaves ``canGoOn`` false: a kind made of several actions asks it
/// between them, as the runner asks between steps.
///
/// The harness implements it for a real run (`SessionStepHarness`, FrugalHarness/Steps); a test
/// double records the calls (`RecordingStepHarness`, FrugalCoreTests), so what each kind asks of
/// the harness is checked without a run.
public protocol StepHarness: AnyObject {
    /// Whether the scenario can go on: not stopped (by a watchdog, an exit, an interruption of
    /// the suite), and the workload running or killed by the scenario (it can be relaunched).
    var canGoOn: Bool { get }

    // For an app and a program alike: only the harness (or the run's proxy, cgroup) takes part.

    /// Records `step` as done now, with `problem` when it failed (a `mark`: no time passes).
    func record(_ step: ScenarioStep, problem: String?)
    /// Lets `seconds` pass with nothing delivered, sampled at both ends: an idle phase (`wait`),
    /// recorded as `wait(seconds)`.
    func idle(seconds: Double)
    /// Switches the shaping proxy's link to the built-in profile named `profile`.
    func setNetwork(profile: String)
    /// Injects the fault `kind` (`reset`, `stall:2`, ...) into the proxy's next connection(s).
    func injectFault(_ kind: String)
    /// Sets the workload's memory cgroup limit to `bytes` (a simulated critical warning without a cgroup).
    func limitMemory(to bytes: Int)
    /// Starts a memory hog of `bytes` in the workload's cgroup and waits until it has filled.
    func startBalloon(bytes: Int)

    // For an app, over the FrugalKit protocol: the harness is the system.

    /// Waits for the app's first event handled, under the launch watchdog.
    func launchApp()
    /// Delivers an input of `kind` to the main run loop and waits until it is handled.
    func deliverInput(_ kind: String)
    /// Sends `willTerminate` and waits for the exit under the terminate watchdog.
    func terminateApp()
    /// Active → inactive for `seconds` (sampled as an idle phase) → active.
    func interruptApp(seconds: Double)
    /// Inactive, background (`didEnterBackground` under its watchdog), the background time for
    /// open background tasks, the background grace, then suspended for real (SIGSTOP).
    func sendAppHome()
    /// Continues a suspended app; `willEnterForeground`, queued notifications, `didBecomeActive`.
    func bringAppToForeground()
    /// SIGKILL, no callback (the system's kill of a suspended app).
    func killApp()
    /// A new process of the app in the same run and sandbox, under the launch watchdog.
    func relaunchApp()
    /// The notification `name`: handled now, or queued in the control pipe while suspended.
    func notifyApp(_ name: String)
    /// The simulated low-memory warning of `level`, with memory samples around it; waits until handled.
    func warnApp(_ level: MemoryWarningLevel)

    // For a black-box program, with what any Linux program understands: signals and the freezer.

    /// Marks the program (started with the run) active.
    func markProgramLaunched()
    /// The configured input signal, as the user's input (not applicable without one).
    func signalInput(_ kind: String)
    /// SIGTERM to every process of the run, SIGKILL to all after the terminate watchdog.
    func terminateProgram()
    /// Background: nothing is said to the program; after the background grace the run is
    /// frozen (the cgroup freezer, or SIGSTOP to every process).
    func suspendProgram()
    /// Thaws (or SIGCONTs) a suspended program and marks it active.
    func resumeProgram()
    /// SIGKILL to every process of the run, no warning.
    func killProgram()
    /// The same command again, in the same sandbox and cgroup.
    func relaunchProgram()
    /// The configured memory-warning signal, with memory samples around it (not applicable without one).
    func signalMemoryWarning(_ level: MemoryWarningLevel)
}

extension StepHarness {
    /// Records `step` as done now, without a problem.
    public func record(_ step: ScenarioStep) { record(step, problem: nil) }
}

extension StepKind {
    /// How a kind's step runs: the harness actions it takes, given the step (its argument in the
    /// kind's form, read with ``ScenarioStep/seconds`` and its siblings).
    public typealias Run = @Sendable (_ step: ScenarioStep, _ harness: any StepHarness) -> Void

    /// How a kind runs for a black-box program, beside how it runs for an app.
    public enum ForProgram: Sendable {
        /// The same actions as for an app (only the harness, the proxy or the cgroup take part).
        case same
        /// Other actions: signals and the freezer rather than the FrugalKit protocol.
        case runs(Run)
        /// Not applicable: without a FrugalKit event loop the harness has nothing to deliver it
        /// to; the step is recorded as not applicable (``StepKind/appliesToBlackBox`` is false).
        case notApplicable
    }
}

/// A step's argument in the form its kind declares: `ScenarioStep` holds no other (its
/// initialisers check it), so a kind's ``StepKind/Run`` reads it without a case to handle.
extension ScenarioStep {
    /// The seconds of a step of form `seconds`.
    public var seconds: Double {
        guard case .seconds(let seconds) = argument else { preconditionFailure("\(kind.name) has no seconds argument") }
        return seconds
    }

    /// The text of a step of form `text`.
    public var text: String {
        guard case .text(let text) = argument else { preconditionFailure("\(kind.name) has no text argument") }
        return text
    }

    /// The size of a step of form `bytes`.
    public var bytes: Int {
        guard case .bytes(let bytes) = argument else { preconditionFailure("\(kind.name) has no size argument") }
        return bytes
    }

    /// The level of a step of form `level`.
    public var level: MemoryWarningLevel {
        guard case .level(let level) = argument else { preconditionFailure("\(kind.name) has no level argument") }
        return level
    }
}
