import FrugalCore

/// The gate of a run no scheduler gates (a test's run, `--jobs N`) in a process that shares a
/// ``MachineGate`` with others: the run holds the machine as its ``RunPlan/demand`` says, as
/// ``ResourceScheduler`` holds it for a run of a suite. Every run holds it for its launch; a gated
/// run (``RunDemand/gated(_:)``) also for each step judged on time
/// (``FrugalCore/ScenarioStep/isJudgedOnTime``); an exclusive run from before its processes start
/// to its end, or to its closing idle (``RunDemand/exclusiveUntilIdle(_:)``). A light run holds it
/// for its launch only. A plan's demand is exclusive unless it says otherwise, so a run that
/// declares nothing holds the machine whole.
struct MachineStepGate: StepGate {
    let lease: MachineLease
    let demand: RunDemand
    /// The closing wait's index, for a run that lets the machine go there.
    let idle: Int?
    /// The quiet time after a held step before another process's held step may start: the
    /// handlers an app runs right after a step (the scheduler's launch settle).
    let settle: Double

    init(machine: MachineGate, plan: RunPlan, interruption: SuiteInterruption, settle: Double = 0.1) {
        lease = MachineLease(machine: machine, interruption: interruption)
        demand = plan.demand
        idle = switch plan.demand {
        case .exclusiveUntilIdle, .gated: RunDemand.idleTail(of: plan.scenario)
        case .light, .exclusive: nil
        }
        self.settle = settle
    }

    func willStart() {
        if demand.isExclusive { lease.beginExclusive() }
        // The launch: a session spawns its processes before the launch step.
        lease.beginStep()
    }

    func willPerform(_ step: ScenarioStep, index: Int) {
        if index == idle { lease.endExclusive() }
        guard index > 0, step.isJudgedOnTime, !demand.isLight else { return }
        lease.beginStep()
    }

    func didPerform(_ step: ScenarioStep, index: Int) {
        lease.endStep(settle: settle)
    }

    /// The run is over: whatever it still holds is given back.
    func end() { lease.end() }
}
