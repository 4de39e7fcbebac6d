import FrugalCore

/// A machine-wide gate a run asks before each step whose timing an audit reads
/// (``FrugalCore/ScenarioStep/isJudgedOnTime``) and gives back after it: while one run holds it,
/// no other run starts a judged step or a launch, so a launch time, an input's handling, a
/// terminate or a resume is measured with nothing else judged beside it. ``ResourceScheduler``
/// gives each plan one (``RunPlan/stepGate``); without one (`--jobs N`, a single run) every step
/// runs at once.
///
/// The runner calls ``willPerform(_:index:)`` on the run's thread before each step it carries
/// out and ``didPerform(_:index:)`` once the step has ended, whether it ended normally, stopped
/// the run, or threw (``RunPlan/performSteps(shouldStop:perform:)``). A gate decides itself which
/// steps it holds the machine for; both calls are made for every step.
public protocol StepGate: Sendable {
    /// The run is about to start its processes (before the launch step: a session spawns them
    /// when it is made): returns once it may. Called once, on the run's thread.
    func willStart()
    /// Returns once step `index` (`step`) may start: blocks while another run's judged step, or a
    /// run that needs the machine to itself, holds it (or until the suite is interrupted).
    func willPerform(_ step: ScenarioStep, index: Int)
    /// Step `index` has ended: the gate is released if this run held it for that step.
    func didPerform(_ step: ScenarioStep, index: Int)
}

extension StepGate {
    public func willStart() {}
}

extension ScenarioStep {
    /// Whether an audit reads how long this step took: a launch or relaunch (launch time), an
    /// input (its handling: main-thread waiting, hangs), a terminate (`willTerminate` under its
    /// watchdog) and foreground (the resume). Not home: the step waits out the background time
    /// (up to its 4 s budget), judged on counts (CPU in the background, lost changes, a kill when
    /// the time runs out); its one timed part, `didEnterBackground` (tens of ms against
    /// `lifecycle.background-transition`'s 100 ms good, 1 s poor), has the margin to share the
    /// machine, as every light run's home already does. Waits, notifications, network changes
    /// and faults are judged on counts; an interruption's inactive phase is a wait.
    public var isJudgedOnTime: Bool { kind.isTimingJudged }
}

extension RunPlan {
    /// Carries out the scenario's steps in order through ``beforeStep`` and ``stepGate``:
    /// `shouldStop` is asked before each step (before the gate, and again once it is held, since
    /// the suite may have been interrupted while the run waited for it); `perform` carries the step
    /// out. The gate is given back after every step it was asked for, also when `perform` throws.
    public func performSteps(shouldStop: (Int, ScenarioStep) -> Bool, perform: (Int, ScenarioStep) throws -> Void) rethrows {
        for (index, step) in scenario.steps.enumerated() {
            if shouldStop(index, step) { break }
            beforeStep?(index)
            stepGate?.willPerform(step, index: index)
            defer { stepGate?.didPerform(step, index: index) }
            if index > 0, stepGate != nil, shouldStop(index, step) { break }
            try perform(index, step)
        }
    }
}
