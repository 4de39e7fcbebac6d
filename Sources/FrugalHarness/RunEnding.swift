import FrugalCore

/// The owner of how a run is ending, as the harness decides it: whether the scenario can go on,
/// whether it asked the app to terminate, and the outcome the harness gave the run with its
/// detail. Both flags only ever go one way; the outcome and its detail are set together, so a
/// detail never describes another outcome. `RunSession` and the steps read it and change it
/// only here.
struct RunEnding {
    /// Set by a step that ends the scenario early (a kill, a watchdog, a process gone).
    private(set) var stopped = false
    /// Whether the scenario asked the app to terminate.
    private(set) var terminateRequested = false
    /// The outcome the harness gave the run (a watchdog, a timeout, an OOM kill, an interruption,
    /// or the exit classified at the end); nil lets the exit status decide.
    private(set) var outcome: RunOutcome?
    /// What `outcome` was, in a line.
    private(set) var detail: String?

    /// The scenario cannot go on.
    mutating func stop() { stopped = true }

    /// The scenario asked the app to terminate.
    mutating func requestTerminate() { terminateRequested = true }

    /// The run's outcome is `outcome`, for `detail`: a later decision replaces an earlier one (the
    /// callers check ``outcome`` first where the first cause must win).
    mutating func decide(_ outcome: RunOutcome, detail: String?) {
        self.outcome = outcome
        self.detail = detail
    }
}
