import FrugalCore
import FrugalProbe

/// The current process's hardware counters and sync-call counters, and what the run's finished
/// processes counted together: one owner for the four, so each process's counters are attached
/// once, read once after its reap (the kernel folds a child's inherited counts into its parent's
/// counter when the child exits), closed, and added to the totals.
///
/// A `RunSession` holds one (`counters`); its transitions are ``attach(hardware:syncs:)`` at
/// each spawn, ``fold()`` at each reap and ``abandon()`` when a spawn fails.
struct ProcessCounters {
    typealias Hardware = Result<any HardwareCounterSession, HardwareCountersUnavailable>
    typealias Syncs = Result<SyncCallSession, HardwareCountersUnavailable>

    /// The current process's counters, or why there are none; nil between a reap and the next spawn,
    /// and for a run that never asked (syncs are counted for black boxes only).
    private(set) var hardware: Hardware?
    private(set) var syncs: Syncs?
    /// What the finished processes counted, added up; nil until one was folded.
    private(set) var hardwareTotal: HardwareCounterReading?
    private(set) var syncTotal: SyncCallFacts?

    /// The counters of a newly spawned process. The previous process's must have been folded:
    /// counters attached over unread ones would lose a process's counts.
    mutating func attach(hardware: Hardware?, syncs: Syncs?) {
        precondition(self.hardware == nil && self.syncs == nil, "a process's counters attached before the last one's were read")
        self.hardware = hardware
        self.syncs = syncs
    }

    /// Reads and closes the current process's counters (after its reap) and adds them to the
    /// totals; a counter that could not be opened adds its reason. Does nothing when none are attached.
    mutating func fold() {
        if let session = hardware {
            let reading: HardwareCounterReading
            switch session {
            case .success(let counters):
                reading = counters.read()
                counters.close()
            case .failure(let reason):
                reading = HardwareCounterReading(unavailable: reason.description)
            }
            hardwareTotal = hardwareTotal.map { $0.adding(reading) } ?? reading
            hardware = nil
        }
        if let session = syncs {
            let facts: SyncCallFacts
            switch session {
            case .success(let counters):
                let counts = counters.read()
                counters.close()
                facts = counts.map { SyncCallFacts(fsync: $0[0], fdatasync: $0[1], syncFileRange: $0[2]) }
                    ?? SyncCallFacts(unavailable: "reading the tracepoint counters failed")
            case .failure(let reason):
                facts = SyncCallFacts(unavailable: reason.description)
            }
            syncTotal = syncTotal.map { $0.adding(facts) } ?? facts
            syncs = nil
        }
    }

    /// Closes what is attached without reading it: the run did not start.
    mutating func abandon() {
        if case .success(let counters)? = hardware { counters.close() }
        if case .success(let counters)? = syncs { counters.close() }
        (hardware, syncs) = (nil, nil)
    }
}
