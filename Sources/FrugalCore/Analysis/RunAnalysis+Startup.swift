/// A black-box program's start-up, left out of its idle time (`power.avoid-polling` and the
/// metrics built on the idle accounts). Its launch step ends at the spawn — a program signals no
/// first event handled — so without this, loading and reading configuration in the first wait
/// step counted as idle wakeups. Where start-up ended is judged from outside (``ProgramStartup``):
/// the main thread's first sustained interruptible wait.
extension RunAnalysis {
    /// From each watched process's spawn to its start-up's end; none where no end was seen (a
    /// program that never waited a whole sampling interval — a fast poller — keeps all its time
    /// judged, as before), and none for an app (its launch ends at its first acknowledged event).
    var startupIntervals: [(start: UInt64, end: UInt64, reason: BusyReason)] {
        guard record.blackBox else { return [] }
        return (record.outsideWatch?.startups ?? []).compactMap { startup in
            guard let end = startup.end, end > startup.start else { return nil }
            return (start: startup.start, end: end, reason: BusyReason.startingUp)
        }
    }

    /// Where the run's program judged its start-up ended, for the report (empty for an app or a
    /// record made before the harness judged it).
    public var programStartups: [ProgramStartup] {
        guard record.blackBox else { return [] }
        return record.outsideWatch?.startups ?? []
    }
}
