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

    /// The ended processes' final `/proc/<pid>/io` added up: a relaunched run has several, and a
    /// total is only given when every one's final reading was taken.
    var finalIO: ProcessIOCounters? {
        let readings = entries.compactMap(\.io)
        guard readings.count == entries.count, let last = readings.last else { return nil }
        func sum(_ field: (ProcessIOCounters) -> Int?) -> Int? {
            let values = readings.compactMap(field)
            return values.count == readings.count ? values.reduce(0, +) : nil
        }
        return ProcessIOCounters(time: last.time, charactersWritten: sum(\.charactersWritten),
                                 writeSyscalls: sum(\.writeSyscalls), physicalBytesWritten: sum(\.physicalBytesWritten),
                                 cancelledBytesWritten: sum(\.cancelledBytesWritten))
    }

    /// The bytes of every ended process's event stream.
    var eventStreamBytes: Int { entries.reduce(0) { $0 + $1.eventStreamBytes } }
}

extension ProcessArchive.Entry {
    /// What `process` left once reaped (`exit`): its segment, its events (a malformed line is a
    /// mark at its exit), what `sampler` took of it, and its final I/O.
    init(reaped process: any AppProcess, exit: ProcessExit, reader: EventStreamReader, sampler: ProcSampler) {
        var events = reader.snapshot
        for line in reader.malformedLines {
            events.append(WorkloadEvent(time: exit.time, body: .mark(Mark(name: "malformed-event", detail: line))))
        }
        var segment = ProcessSegment(pid: process.pid, startTime: process.spawnTime, endTime: exit.time,
                                     exitStatus: exit.status, resourceUsage: exit.usage)
        segment.mainThreadWakeupsAtExit = process.finalMainThreadStatus?.voluntaryContextSwitches
        segment.voluntarySwitchesBeforeExec = process.voluntarySwitchesBeforeExec
        self.init(segment: segment, events: events, samples: sampler.all, malformed: reader.malformedLines,
                  threads: sampler.threadEvidence.all, io: process.finalIO, eventStreamBytes: reader.bytesRead)
    }
}
