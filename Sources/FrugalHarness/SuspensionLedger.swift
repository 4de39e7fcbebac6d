import FrugalCore

/// The owner of a run's suspensions: where the current process stands (running, being frozen,
/// suspended, and how), and the record of every suspension so far. `RunSession` reads it and
/// changes it only through these transitions, so the state, the freezer and the records cannot
/// drift apart (a suspension is ended on the record it began). A move the state does not allow
/// (a suspension begun over another, one ended that never began) is refused: the transition
/// returns false and changes nothing.
struct SuspensionLedger {
    /// Where the current process stands.
    enum State: Equatable {
        /// Not stopped by the harness.
        case running
        /// The cgroup freezer holds the run, and the suspension is not recorded yet (its first
        /// sample is taken once the freezer holds).
        case freezing
        /// Every thread was seen stopped: by the cgroup freezer (`frozen`), else by SIGSTOP.
        case suspended(frozen: Bool)
    }

    /// Where the current process stands now.
    private(set) var state = State.running
    /// Every suspension so far, the last one open while ``isSuspended``.
    private(set) var records: [SuspensionRecord] = []

    /// Whether the current process is suspended (a suspension has begun and not ended).
    var isSuspended: Bool {
        if case .suspended = state { return true }
        return false
    }

    /// Whether the run's cgroup is frozen by the harness: from when the freezer took hold, which
    /// is before the suspension is recorded, to the thaw.
    var isFrozen: Bool { state == .freezing || state == .suspended(frozen: true) }

    /// The freezer holds the run's cgroup. Allowed from `running` only.
    @discardableResult
    mutating func froze() -> Bool {
        guard state == .running else { return false }
        state = .freezing
        return true
    }

    /// The freezer let go of the run's cgroup: thawed before a suspension was recorded (it could
    /// not be sampled), or thawed to end one (which stays open until ``ended(at:sample:endedBy:)``).
    /// Refused when nothing is frozen.
    @discardableResult
    mutating func thawed() -> Bool {
        switch state {
        case .freezing: state = .running
        case .suspended(frozen: true): state = .suspended(frozen: false)
        case .running, .suspended(frozen: false): return false
        }
        return true
    }

    /// A suspension has begun: every thread was seen stopped (`record`'s first sample), frozen
    /// when the freezer holds. Refused over a suspension that has not ended.
    @discardableResult
    mutating func began(_ record: SuspensionRecord) -> Bool {
        switch state {
        case .running: state = .suspended(frozen: false)
        case .freezing: state = .suspended(frozen: true)
        case .suspended: return false
        }
        records.append(record)
        return true
    }

    /// The current suspension ended at `time` (the last sample of the stopped process, and what
    /// ended it), closing the last record. Refused when no suspension is open.
    @discardableResult
    mutating func ended(at time: UInt64, sample: ProcessSample?, endedBy: String) -> Bool {
        guard isSuspended, var last = records.popLast() else { return false }
        last.end = time
        last.sampleAtEnd = sample
        last.endedBy = endedBy
        records.append(last)
        state = .running
        return true
    }

    /// A new process replaced the current one: it starts running. The records stay the run's.
    /// Refused while the freezer holds the run (a process born there would be frozen).
    @discardableResult
    mutating func processReplaced() -> Bool {
        guard !isFrozen else { return false }
        state = .running
        return true
    }
}
