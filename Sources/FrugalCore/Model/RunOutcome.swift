/// How a run ended. A workload that crashes, hangs or is killed is a finding, not a harness failure.
public enum RunOutcome: String, Codable, Sendable, CaseIterable {
    /// The scenario ran to its end and the workload exited after `terminate`.
    case completed
    /// The workload died on its own (a signal or a non-zero exit).
    case crashed
    /// A guide watchdog (launch, background, terminate) killed it.
    case killedWatchdog = "killed-watchdog"
    /// The kernel's OOM killer took it.
    case killedMemory = "killed-memory"
    /// It did not exit when the scenario ended and had to be killed.
    case timedOut = "timed-out"
    /// The user stopped the suite (SIGINT, SIGTERM) while this run was going: the run was ended
    /// through its normal teardown and what it measured so far is kept, but it is not a verdict.
    case interrupted
    /// The harness failed inside this run (a control pipe that broke, an event stream that could
    /// not be read): the detail says what; the workload is not blamed for it.
    case harnessError = "harness-error"
}

/// How the process ended, as `wait4` reported it.
public struct ExitStatus: Codable, Sendable, Equatable {
    /// Exit code when it exited.
    public var code: Int32?
    /// Signal number when a signal ended it.
    public var signal: Int32?
    public init(code: Int32? = nil, signal: Int32? = nil) {
        self.code = code
        self.signal = signal
    }
}
