import FrugalCore
import FrugalProbe

/// The owner of what a run keeps of its ended processes (a relaunch starts a new one): each one's
/// segment, what it reported and what was sampled of it, and its final I/O. Appended to once per
/// process when it is reaped (`RunSession.archiveCurrentProcess`), read when the record is built.
struct ProcessArchive {
    /// One ended process of the run.
    struct Entry {
        var segment: ProcessSegment
        var events: [WorkloadEvent]
        var samples: [ProcessSample]
        var malformed: [String]
        var threads: [ThreadEvidence]
        /// Its final `/proc/<pid>/io`, nil when it could not be read.
        var io: ProcessIOCounters?
        /// The bytes of its event stream (which `wchar` counts too).
        var eventStreamBytes: Int
    }

    /// The ended processes, in the order they ran.
    private(set) var entries: [Entry] = []

    /// Keeps a process that has just been reaped.
    mutating func add(_ entry: Entry) { entries.append(entry) }
}
