/// One scheduled run's holds on the gate it shares with other processes (``MachineGate``): one
/// while the run is exclusive (from its launch to its closing idle or its end), one while a step of
/// it holds the suite's own gate (its launch, a judged step). Used only on the run's own thread,
/// in the order the runner calls its ``StepGate``; without a machine gate every call does nothing.
// @unchecked: `exclusive` and `step` are touched only on the run's thread (see above).
final class MachineLease: @unchecked Sendable {
    let machine: MachineGate?
    let interruption: SuiteInterruption
    private var exclusive = false
    private var step = false

    init(machine: MachineGate?, interruption: SuiteInterruption) {
        self.machine = machine
        self.interruption = interruption
    }

    /// Waits for the machine and holds it until ``endExclusive()`` or ``end()``.
    func beginExclusive() {
        guard let machine, !exclusive else { return }
        exclusive = machine.acquire(shouldStop: { interruption.signal != nil })
    }

    func endExclusive() {
        guard exclusive else { return }
        exclusive = false
        machine?.release()
    }

    /// Waits for the machine and holds it for one step, until ``endStep(settle:)``.
    func beginStep() {
        guard let machine, !step else { return }
        step = machine.acquire(shouldStop: { interruption.signal != nil })
    }

    /// The step has ended: the next holder elsewhere starts `settle` seconds from now at the soonest.
    func endStep(settle: Double) {
        guard step else { return }
        step = false
        machine?.release(settle: settle)
    }

    /// The run is over: whatever it still holds is given back.
    func end() {
        endStep(settle: 0)
        endExclusive()
    }
}
