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

    /// A black-box program's main-thread hangs seen from outside, split at its start-up: a stretch
    /// inside a start-up that ended within the guide's launch limit ("Apps are expected to launch
    /// and initialize themselves and start handling events in less than 5 seconds") was the
    /// program loading, before it handled any event: its binary and libraries paged in from disk,
    /// its configuration read. The watch already counts a busy stretch before the main thread's
    /// first sleep as launch; a wait on the disk there is launch too. Counted as a hang, it made
    /// the verdict the page cache's: an idle Node.js server failed `main.no-long-blocks` on its
    /// first run (792 ms in `folio_wait_bit_common`, paging in its 100 MB binary) and passed on
    /// the next. A start-up longer than the limit keeps its hangs: the program was unresponsive
    /// past the launch the guide allows; so does a main thread that never waited at all, but for
    /// a program run to its end, whose busy main thread is its job.
    public var programHangs: (judged: [OutsideHang], startingUp: [OutsideHang]) {
        let hangs = record.outsideWatch?.hangs ?? []
        let limit = UInt64(Thresholds.launchWatchdogSeconds * 1e9)
        let startups = startupIntervals.filter { $0.end - $0.start <= limit }
        // Run to its end (the scenario is its launch alone), a program is a job with no event to
        // answer: on the CPU from its spawn is its work (a compressor's), not a launch overrun.
        let runToItsEnd = record.steps.map(\.step) == [.launch]
        var judged: [OutsideHang] = [], startingUp: [OutsideHang] = []
        for hang in hangs {
            if runToItsEnd && hang.kind == OutsideHang.neverWaitedKind { continue }
            if startups.contains(where: { $0.start <= hang.start && hang.end <= $0.end }) {
                startingUp.append(hang)
            } else {
                judged.append(hang)
            }
        }
        return (judged, startingUp)
    }
}
