/// Facts derived from a `RunRecord` that metrics and audits share: the handlers, the idle
/// phases, the launch, all on the run's clock (seconds since exec).
public struct RunAnalysis: Sendable {
    public let record: RunRecord
    /// Main-run-loop handlers in order.
    public let handlers: [HandlerRecord]
    /// Idle phases: `wait` steps from the moment the app's threads went quiet to the step's end,
    /// with the process sampled at both ends.
    public let idlePhases: [Phase]
    /// The time from exec to the first acknowledged event, ns, if the app got that far.
    public let launchNanoseconds: UInt64?
    /// The counters the workload reported in its hello.
    public let counters: [CounterAvailability]
    /// Inactive phases: `interrupt` steps from the moment the app was inactive and quiet to
    /// just before it was made active again.
    public let inactivePhases: [Phase]

    /// A span of the run with the process sampled at both ends.
    public struct Phase: Sendable {
        public var start: UInt64
        public var end: UInt64
        public var startSample: ProcessSample
        public var endSample: ProcessSample
        /// Seconds the phase lasted.
        public var seconds: Double { Double(end &- start) / 1e9 }
        /// Wakeups of all threads in the phase.
        public var wakeups: Int { endSample.wakeups(since: startSample) }
    }

    public init(_ record: RunRecord) {
        self.record = record
        var handlers: [HandlerRecord] = []
        var firstAck: UInt64?
        var counters: [CounterAvailability] = []
        for event in record.events {
            switch event.body {
            case .handler(let handler): handlers.append(handler)
            case .ack: if firstAck == nil { firstAck = event.time }
            case .hello(let hello): counters = hello.counters
            case .stateChanged, .mark, .blockingCall, .fileWrite, .handlerBegan, .backgroundTask, .preservedState, .hangStack,
                 .networkRequest, .memory, .controlError: break
            }
        }
        self.handlers = handlers
        self.counters = counters
        self.launchNanoseconds = firstAck.map { $0 >= record.startTime ? $0 - record.startTime : 0 }
        self.inactivePhases = record.steps.compactMap { step in
            guard step.step.kind == .interrupt, let startSample = step.sampleAtStart, let endSample = step.sampleAtEnd,
                  step.problem == nil else { return nil }
            return Phase(start: startSample.time, end: endSample.time, startSample: startSample, endSample: endSample)
        }
        self.idlePhases = record.steps.compactMap { step in
            guard step.step.kind == .wait, let startSample = step.sampleAtStart, let endSample = step.sampleAtEnd,
                  step.problem == nil else { return nil }
            return Phase(start: startSample.time, end: endSample.time, startSample: startSample, endSample: endSample)
        }
    }

    /// Seconds since exec of a monotonic time.
    public func runTime(_ monotonic: UInt64) -> Double {
        Double(Int64(bitPattern: monotonic &- record.startTime)) / 1e9
    }

    /// The run's wall time in seconds.
    public var wallSeconds: Double { Double(record.endTime &- record.startTime) / 1e9 }

    /// Handlers of `threshold` or more, longest first.
    public func handlers(atLeast thresholdMs: Double) -> [HandlerRecord] {
        handlers.filter { Double($0.duration) / 1e6 >= thresholdMs }.sorted { $0.duration > $1.duration }
    }

    /// Main-thread blocking, ns: Σ max(0, handler − 50 ms).
    public var blockingNanoseconds: UInt64 {
        handlers.reduce(0) { $0 + ($1.duration > Thresholds.blockingGrace ? $1.duration - Thresholds.blockingGrace : 0) }
    }
}

/// Thresholds shared by metrics and audits, each with its source.
public enum Thresholds {
    /// A handler longer than 50 ms blocks the main thread for the rest (docs/RULES.md, main.no-long-blocks;
    /// the same 50 ms as the Long Tasks API and Lighthouse's Total Blocking Time).
    public static let blockingGrace: UInt64 = 50_000_000
    /// A main-thread delay of 250 ms or more is a hang (Apple: Instruments, MetricKit).
    public static let hangMilliseconds: Double = 250
    /// The guide: "start handling events in less than 5 seconds".
    public static let launchWatchdogSeconds: Double = 5
}
