import FrugalCore

/// The owner of a run's suspensions: whether the current process is suspended, how (the cgroup
/// freezer or SIGSTOP), and the record of every suspension so far. `RunSession` reads it and
/// changes it only through these transitions, so the flag, the freezer and the records cannot
/// drift apart (a suspension is ended on the record it began).
struct SuspensionLedger {
    /// Whether the current process is suspended (a suspension has begun and not ended).
    private(set) var isSuspended = false
    /// Whether the run's cgroup is frozen by the harness. Set when the freezer took hold, which is
    /// before the suspension is recorded (its first sample is taken once it holds).
    private(set) var isFrozen = false
    /// Every suspension so far, the last one open while ``isSuspended``.
    private(set) var records: [SuspensionRecord] = []

    /// The freezer holds the run's cgroup.
    mutating func froze() { isFrozen = true }

    /// The freezer let go of the run's cgroup (thawed, or the suspension could not be sampled).
    mutating func thawed() { isFrozen = false }

    /// A suspension has begun: every thread was seen stopped (`record`'s first sample).
    mutating func began(_ record: SuspensionRecord) {
        records.append(record)
        isSuspended = true
    }

    /// The current suspension ended at `time` (the last sample of the stopped process, and what
    /// ended it), closing the last record.
    mutating func ended(at time: UInt64, sample: ProcessSample?, endedBy: String) {
        if var last = records.popLast() {
            last.end = time
            last.sampleAtEnd = sample
            last.endedBy = endedBy
            records.append(last)
        }
        isSuspended = false
    }

    /// A new process replaced the current one: it starts running. The records stay the run's.
    mutating func processReplaced() { isSuspended = false }
}
