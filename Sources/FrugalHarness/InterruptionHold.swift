import Foundation

/// The current process's registration with the suite's interruption (`SuiteInterruption`): an
/// interrupt kills it, continued first if stopped, so the step waiting on it returns at once and
/// the run ends on its own thread (`RunSession.checkInterruption`). Registered at each spawn and
/// released at the process's reap, once.
struct InterruptionHold {
    private var token: Int?

    /// Holds `process` for `interruption`; the last process's hold must have been released.
    mutating func register(_ process: any AppProcess, with interruption: SuiteInterruption) {
        token = interruption.register {
            process.kill(SIGCONT)
            process.kill(SIGKILL)
        }
    }

    /// Lets the reaped process go.
    mutating func release(from interruption: SuiteInterruption) {
        if let token { interruption.unregister(token) }
        token = nil
    }
}
