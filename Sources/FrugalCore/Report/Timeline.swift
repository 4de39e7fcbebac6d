/// What happened when, on the run's clock (seconds since exec): the lanes of the HTML timeline.
public struct Timeline: Codable, Sendable, Equatable {
    /// The app's states as intervals.
    public var states: [StateInterval]
    /// Main-thread handlers.
    public var handlers: [HandlerSpan]
    /// The scenario's steps.
    public var steps: [StepMark]
    /// Wakeups and CPU time between consecutive `/proc` samples.
    public var activity: [ActivitySample]
    /// The run's length, seconds.
    public var duration: Double
    /// Writes, fsyncs and deletes through FrugalKit (the disk lane); absent for runs without a journal.
    public var disk: [DiskMark]?
    /// Hangs of the main thread (handlers of 250 ms or more), with their stacks. Absent in older reports.
    public var hangs: [HangMark]?
    /// Resident memory by kind at each `/proc` sample (nil in reports made before it existed).
    public var memory: [MemoryLaneSample]?
    /// Memory warnings delivered and the kernel's pressure events, on the memory lane.
    public var memoryMarks: [MemoryMark]?

    /// The device radio's states and the app's requests; nil when no shaping proxy ran.
    public var radio: RadioLane?
    /// What the app marked (`Application.mark`) and the runtime's own marks (work that never
    /// ran, a malformed event line), on the main-thread lane; the first `AppMark.limit` of them.
    /// Nil when there were none (and in reports made before marks were drawn).
    public var marks: [AppMark]?
    /// Each thread's wakeups and CPU between `/proc` samples, for the run's Perfetto trace
    /// (`Timeline+ThreadLanes.swift`); nil without samples (and in reports made before it existed).
    public var threadLanes: [ThreadLane]?
    /// The process's write counters over the run (`/proc/<pid>/io`), for the trace; nil when never read.
    public var io: [IOLaneSample]?

    public init(states: [StateInterval], handlers: [HandlerSpan], steps: [StepMark], activity: [ActivitySample], duration: Double,
                hangs: [HangMark]? = nil, radio: RadioLane? = nil) {
        self.states = states
        self.handlers = handlers
        self.steps = steps
        self.activity = activity
        self.duration = duration
        self.hangs = hangs
        self.radio = radio
    }
}

/// A mark on the main-thread lane: a fact the app recorded at a moment.
public struct AppMark: Codable, Sendable, Equatable {
    /// At most this many marks are kept on a timeline: a workload marking every request must
    /// not grow the report without bound.
    public static let limit = 1000
    /// Seconds since exec.
    public var time: Double
    public var name: String
    public var detail: String?

    public init(time: Double, name: String, detail: String? = nil) {
        self.time = time
        self.name = name
        self.detail = detail
    }
}

/// A hang on the main-thread lane.
public struct HangMark: Codable, Sendable, Equatable {
    public var handler: String
    public var start: Double
    public var durationMs: Double
    /// The main thread's stack while it hung, innermost first, when one was captured.
    public var stack: [String]?
}

public struct StateInterval: Codable, Sendable, Equatable {
    public var state: AppState
    public var start: Double
    public var end: Double
}

public struct HandlerSpan: Codable, Sendable, Equatable {
    public var name: String
    public var start: Double
    public var durationMs: Double
    /// On-CPU ms of the main thread in the handler, when counted.
    public var cpuMs: Double?
    /// Context switches of the main thread in the handler, when counted.
    public var contextSwitches: Int?
    /// Off-CPU waiting in the handler, ms (wall − on-CPU − run-queue delay, when it slept), when counted.
    public var waitingMs: Double?

    public init(name: String, start: Double, durationMs: Double, cpuMs: Double? = nil, contextSwitches: Int? = nil, waitingMs: Double? = nil) {
        self.name = name
        self.start = start
        self.durationMs = durationMs
        self.cpuMs = cpuMs
        self.contextSwitches = contextSwitches
        self.waitingMs = waitingMs
    }
}

public struct StepMark: Codable, Sendable, Equatable {
    public var step: String
    public var start: Double
    public var end: Double
    public var problem: String?
}

public struct ActivitySample: Codable, Sendable, Equatable {
    /// End of the interval, seconds since exec.
    public var time: Double
    /// Interval length, seconds.
    public var interval: Double
    public var wakeups: Int
    public var cpuSeconds: Double
    public var residentBytes: Int?

    public init(time: Double, interval: Double, wakeups: Int, cpuSeconds: Double, residentBytes: Int? = nil) {
        self.time = time
        self.interval = interval
        self.wakeups = wakeups
        self.cpuSeconds = cpuSeconds
        self.residentBytes = residentBytes
    }
}

extension Timeline {
    /// Builds the lanes from a run's facts.
    public init(_ analysis: RunAnalysis) {
        let record = analysis.record
        let duration = analysis.wallSeconds
        let states = analysis.stateSpans.map {
            StateInterval(state: $0.state, start: analysis.runTime($0.start), end: analysis.runTime($0.end))
        }
        let handlers = analysis.handlers.map {
            HandlerSpan(name: $0.name, start: analysis.runTime($0.start), durationMs: Double($0.duration) / 1e6,
                        cpuMs: $0.cpuNanoseconds.map { Double($0) / 1e6 }, contextSwitches: $0.contextSwitches,
                        waitingMs: $0.offCPUWaitingNanoseconds.map { Double($0) / 1e6 })
        }
        let steps = record.steps.map {
            StepMark(step: $0.step.description, start: analysis.runTime($0.start), end: analysis.runTime($0.end), problem: $0.problem)
        }
        var activity: [ActivitySample] = []
        for (previous, sample) in zip(record.samples, record.samples.dropFirst()) {
            activity.append(ActivitySample(time: analysis.runTime(sample.time), interval: Double(sample.time &- previous.time) / 1e9,
                                           wakeups: sample.wakeups(since: previous),
                                           cpuSeconds: Double(sample.onCPUNanoseconds(since: previous)) / 1e9,
                                           residentBytes: sample.residentBytes))
        }
        let ends = Self.wholeRunEnds(analysis, between: activity, totals: Self.activityTotals(record))
        activity = (ends.head.map { [$0] } ?? []) + activity + (ends.tail.map { [$0] } ?? [])
        let hangs = analysis.hangs.sorted { $0.handler.start < $1.handler.start }.map { hang in
            HangMark(handler: hang.handler.name, start: analysis.runTime(hang.handler.start), durationMs: Double(hang.handler.duration) / 1e6,
                     stack: hang.stack.map { $0.frames.map { "\($0.symbol ?? "?") (\($0.module))" } })
        }
        let allHangs = hangs + Self.outsideHangMarks(analysis)
        self.init(states: states, handlers: handlers, steps: steps, activity: activity, duration: duration,
                  hangs: allHangs.isEmpty ? nil : allHangs, radio: RadioLane(analysis))
        let journal = DiskActivity(analysis).journal
        if !journal.isEmpty {
            disk = journal.map {
                DiskMark(time: analysis.runTime($0.start), durationMs: Double($0.end &- $0.start) / 1e6, path: $0.path,
                         location: $0.location, operation: $0.operation, bytes: $0.length,
                         changedBytes: $0.operation.writesContent ? $0.changedBytes : nil, synced: $0.synced, onMainThread: $0.onMainThread)
            }
        }
        addMemoryLane(analysis)
        addThreadLanes(analysis)
        let marks = record.events.lazy.compactMap { event -> AppMark? in
            guard case .mark(let mark) = event.body else { return nil }
            return AppMark(time: analysis.runTime(event.time), name: mark.name, detail: mark.detail)
        }.prefix(AppMark.limit)
        self.marks = marks.isEmpty ? nil : Array(marks)
    }
}

/// One entry of the disk lane: a write, fsync or delete through FrugalKit.
public struct DiskMark: Codable, Sendable, Equatable {
    /// Seconds since exec, and how long the call took.
    public var time: Double
    public var durationMs: Double
    /// Path relative to the sandbox root, and its place.
    public var path: String
    public var location: SandboxLocation
    public var operation: FileWrite.Operation
    /// Bytes written, and bytes of blocks that changed (content writes only).
    public var bytes: Int
    public var changedBytes: Int?
    /// Whether the call ended with an fsync.
    public var synced: Bool
    public var onMainThread: Bool
}
