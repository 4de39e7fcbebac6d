import XCTest
@testable import FrugalHarness

/// What a test's runs and timings ask of the machine when the test lanes share one
/// (`scripts/test.sh` names one ``MachineGate`` in `FRUGAL_MACHINE_GATE` for its main lane and
/// its shared lane): each run holds the gate as its plan declares (``MachineStepGate``), and a
/// plan declares nothing unless its test says why it may share.
extension RunPlan {
    /// This plan, declaring `demand`: ``RunDemand/light`` for a run that sleeps and whose test
    /// reads only counts, ``RunDemand/gated(_:)`` for one whose test reads the timing of its
    /// judged steps only. The reason goes beside the call.
    func demanding(_ demand: RunDemand) -> RunPlan {
        var plan = self
        plan.demand = demand
        return plan
    }
}

extension XCTestCase {
    /// Holds the machine gate this process shares, if any, until the test ends: for a test that
    /// times something itself, with no run to hold the gate for it (a shaped link's throughput, a
    /// watcher's catch-up, a scheduler's gate). Never in a test that spawns `frugal`: the child
    /// would wait for the gate this process holds.
    func holdTheMachine() {
        guard let machine = MachineGate.environment, machine.acquire() else { return }
        addTeardownBlock { machine.release() }
    }
}
