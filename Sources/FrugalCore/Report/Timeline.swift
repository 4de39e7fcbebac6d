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
    /// Resident memory by kind at each `/proc` sample (nil in reports made before it existed).
    public var memory: [MemoryLaneSample]?
    /// Memory warnings delivered and the kernel's pressure events, on the memory lane.
    public var memoryMarks: [MemoryMark]?

    public init(states: [StateInterval], handlers: [HandlerSpan], steps: [StepMark], activity: [ActivitySample], duration: Double) {
        self.states = states
        self.handlers = handlers
        self.steps = steps
        self.activity = activity
        self.duration = duration
    }
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
}

extension Timeline {
    /// Builds the lanes from a run's facts.
    public init(_ analysis: RunAnalysis) {
        let record = analysis.record
        let duration = analysis.wallSeconds
        var states: [StateInterval] = []
        var current: (AppState, Double)?
        for event in record.events {
            guard case .stateChanged(let change) = event.body else { continue }
            let time = analysis.runTime(event.time)
            if let (state, start) = current { states.append(StateInterval(state: state, start: start, end: time)) }
            current = (change.to, time)
        }
        if let (state, start) = current, state != .notRunning {
            states.append(StateInterval(state: state, start: start, end: duration))
        }
        let handlers = analysis.handlers.map {
            HandlerSpan(name: $0.name, start: analysis.runTime($0.start), durationMs: Double($0.duration) / 1e6,
                        cpuMs: $0.cpuNanoseconds.map { Double($0) / 1e6 }, contextSwitches: $0.contextSwitches)
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
        self.init(states: states, handlers: handlers, steps: steps, activity: activity, duration: duration)
        addMemoryLane(analysis)
    }
}
