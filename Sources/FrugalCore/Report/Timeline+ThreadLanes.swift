/// The lanes a Perfetto trace of the run needs beyond the HTML timeline's: each thread's wakeups
/// and CPU between `/proc` samples, and the process's write counters over time. They make
/// report.json enough to draw the trace again (`frugal report --trace`), as it is for the HTML.

/// One thread's lane: what it did between consecutive `/proc` samples.
public struct ThreadLane: Codable, Sendable, Equatable {
    /// Threads kept on a timeline, most wakeups first: a program starting thousands of threads
    /// must not grow the report without bound.
    public static let limit = 100

    public var tid: Int32
    /// The process it belonged to (the process sampled when it was seen), when known.
    public var pid: Int32?
    /// `comm` at the last look.
    public var name: String
    public var role: ThreadRole
    /// The intervals in which it woke or ran, in time order; an interval missing from the list
    /// had neither. Their sums are the thread's row of the report's thread table.
    public var samples: [ThreadLaneSample]

    public init(tid: Int32, pid: Int32?, name: String, role: ThreadRole, samples: [ThreadLaneSample]) {
        self.tid = tid
        self.pid = pid
        self.name = name
        self.role = role
        self.samples = samples
    }
}

/// A thread's wakeups and CPU over one interval between two `/proc` samples.
public struct ThreadLaneSample: Codable, Sendable, Equatable {
    /// End of the interval, seconds since exec.
    public var time: Double
    /// Interval length, seconds.
    public var interval: Double
    /// Voluntary context switches in it (`/proc/<pid>/task/<tid>/status`).
    public var wakeups: Int
    /// On-CPU seconds in it (`schedstat`).
    public var cpuSeconds: Double

    public init(time: Double, interval: Double, wakeups: Int, cpuSeconds: Double) {
        self.time = time
        self.interval = interval
        self.wakeups = wakeups
        self.cpuSeconds = cpuSeconds
    }
}

/// The process's write counters at one moment (`/proc/<pid>/io`, cumulative since exec).
public struct IOLaneSample: Codable, Sendable, Equatable {
    /// Seconds since exec.
    public var time: Double
    /// `wchar`: bytes passed to write calls of any kind.
    public var syscallBytes: Int?
    /// `write_bytes`: bytes the process caused to be sent to storage (file pages it dirtied).
    public var storageBytes: Int?

    public init(time: Double, syscallBytes: Int?, storageBytes: Int?) {
        self.time = time
        self.syscallBytes = syscallBytes
        self.storageBytes = storageBytes
    }
}

extension Timeline {
    /// Fills the thread and I/O lanes from the run's samples; leaves each nil when there is
    /// nothing to draw.
    mutating func addThreadLanes(_ analysis: RunAnalysis) {
        let lanes = Self.threadLanes(analysis)
        threadLanes = lanes.isEmpty ? nil : lanes
        let io = Self.ioLane(analysis)
        self.io = io.isEmpty ? nil : io
    }

    /// Each thread's intervals, counted as the thread table counts them (``RunAnalysis/threadActivity``):
    /// a thread present at the run's first sample counts from there; one first seen later was born
    /// in between and counts from zero. The lanes of a thread add up to its row of the table.
    static func threadLanes(_ analysis: RunAnalysis) -> [ThreadLane] {
        let record = analysis.record
        let samples = record.samples.sorted { $0.time < $1.time }
        guard let firstTime = samples.first?.time else { return [] }
        let evidence = Dictionary((record.threadEvidence ?? []).map { ($0.tid, $0) }, uniquingKeysWith: { a, _ in a })
        let roles = analysis.threadRoles
        var previous: [Int32: ThreadSample] = [:]
        var previousTime: UInt64?
        var lanes: [Int32: ThreadLane] = [:]
        var order: [Int32] = []
        for sample in samples {
            for thread in sample.threads {
                let before = previous[thread.tid]
                if lanes[thread.tid] == nil {
                    order.append(thread.tid)
                    let pid = evidence[thread.tid]?.pid ?? Self.process(at: sample.time, record)
                    let role = roles[thread.tid]?.role ?? (thread.tid == pid ? .main : .unknown)
                    lanes[thread.tid] = ThreadLane(tid: thread.tid, pid: pid, name: thread.name, role: role, samples: [])
                }
                lanes[thread.tid]?.name = thread.name
                defer { previous[thread.tid] = thread }
                // At the first sample there is no interval yet: the table counts from there.
                guard sample.time != firstTime, let start = previousTime else { continue }
                let wakeups = max(0, thread.voluntaryContextSwitches - (before?.voluntaryContextSwitches ?? 0))
                let earlierCPU = before?.onCPUNanoseconds ?? 0
                let cpu = thread.onCPUNanoseconds > earlierCPU ? thread.onCPUNanoseconds - earlierCPU : 0
                guard wakeups > 0 || cpu > 0 else { continue }
                lanes[thread.tid]?.samples.append(ThreadLaneSample(time: analysis.runTime(sample.time), interval: Double(sample.time &- start) / 1e9,
                                                                   wakeups: wakeups, cpuSeconds: Double(cpu) / 1e9))
            }
            previousTime = sample.time
        }
        let all = order.compactMap { lanes[$0] }
        let total = { (lane: ThreadLane) in lane.samples.reduce(0) { $0 + $1.wakeups } }
        // The busiest threads when there are too many; the kept ones stay in the order first seen.
        guard all.count > ThreadLane.limit else { return all }
        let kept = Set(all.sorted { (total($0), -$0.tid) > (total($1), -$1.tid) }.prefix(ThreadLane.limit).map(\.tid))
        return all.filter { kept.contains($0.tid) }
    }

    /// The process whose sample was taken at `time`: the process segment that was alive then
    /// (several after a relaunch), else the run's pid.
    static func process(at time: UInt64, _ record: RunRecord) -> Int32? {
        record.processes?.last { $0.startTime <= time && time <= $0.endTime }?.pid ?? record.pid
    }

    /// The write counters at each sample, then the final ones read at exit (after a relaunch the
    /// counters start again from the new process's zero, as `/proc` has them).
    static func ioLane(_ analysis: RunAnalysis) -> [IOLaneSample] {
        let record = analysis.record
        var lane = record.samples.sorted { $0.time < $1.time }.compactMap { sample -> IOLaneSample? in
            guard sample.charactersWritten != nil || sample.physicalBytesWritten != nil else { return nil }
            return IOLaneSample(time: analysis.runTime(sample.time), syscallBytes: sample.charactersWritten, storageBytes: sample.physicalBytesWritten)
        }
        if let final = record.finalIO {
            lane.append(IOLaneSample(time: analysis.runTime(final.time), syscallBytes: final.charactersWritten, storageBytes: final.physicalBytesWritten))
        }
        return lane
    }
}
