/// Work the harness itself set off in a black-box program: each signal it sent (a memory warning,
/// the kernel's pressure relayed as one, an input) wakes the program to answer, as an input wakes
/// an app. FrugalKit reports its handler's span; a program reports nothing, so the answer is taken
/// to last `harnessSignalWindowSeconds` after the signal, and slices of a wait that meet it are
/// left out of the idle accounting (`power.avoid-polling`): those wakeups are the harness's, not
/// polling. The window is the same second the memory audits give the program to free memory.
extension RunAnalysis {
    /// How long after each signal the harness sent a program its wakeups are the signal's, seconds.
    public static let harnessSignalWindowSeconds = 1.0

    /// The spans after each signal the harness sent a black-box program (none for an app, whose
    /// warnings' handlers are in its events).
    var harnessSignalIntervals: [(start: UInt64, end: UInt64, reason: BusyReason)] {
        guard record.blackBox else { return [] }
        let window = UInt64(Self.harnessSignalWindowSeconds * 1e9)
        // A program's deliveries are signals: without a configured signal none is recorded.
        var intervals = (record.memory?.deliveries ?? []).filter { $0.level != .normal }
            .map { (start: $0.time, end: $0.time &+ window, reason: BusyReason.harnessSignal) }
        for step in record.steps where step.problem == nil {
            if step.step.kind == .input { intervals.append((step.start, step.start &+ window, .harnessSignal)) }
        }
        return intervals
    }

    /// Whether the harness sent this program any signal it answers (so the idle metric says what it left out).
    public var sentProgramSignals: Bool { !harnessSignalIntervals.isEmpty }
}
