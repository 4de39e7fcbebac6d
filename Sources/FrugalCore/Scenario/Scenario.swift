/// A named timeline of steps that drives a workload through its life.
public struct Scenario: Codable, Sendable, Equatable {
    public var name: String
    public var summary: String
    public var steps: [ScenarioStep]
    /// Seconds of background time an app gets for its background tasks after `home`
    /// (`Scenario.defaultBackgroundTimeBudget` when absent).
    public var backgroundTimeBudget: Double?
    /// The built-in network profile the run's link starts on (`NetworkProfile.named`); nil: the
    /// run's default (`frugal run --network`).
    public var networkProfile: String?
    /// The device radio whose model prices the run's traffic; nil: the run's default (`--radio`).
    public var radio: RadioProfile.Technology?

    public init(name: String, summary: String, steps: [ScenarioStep], backgroundTimeBudget: Double? = nil,
                networkProfile: String? = nil, radio: RadioProfile.Technology? = nil) {
        self.name = name
        self.summary = summary
        self.steps = steps
        self.backgroundTimeBudget = backgroundTimeBudget
        self.networkProfile = networkProfile
        self.radio = radio
    }

    /// The background time for background tasks when a scenario does not set it: 30 s. The guide
    /// gives no number ("apps are given only a limited amount of time"); 30 s is what iOS 13 and
    /// later grant `beginBackgroundTask` in practice, down from iOS 7's 180 s.
    public static let defaultBackgroundTimeBudget = 30.0

    /// The background time this scenario gives.
    public var effectiveBackgroundTimeBudget: Double { backgroundTimeBudget ?? Scenario.defaultBackgroundTimeBudget }

    /// Seconds of `wait` (and of every step whose argument is seconds that pass, as
    /// `interrupt`'s) in the scenario: a lower bound on how long a run takes.
    public var waitSeconds: Double {
        steps.reduce(0) { total, step in total + step.argument.seconds }
    }
}

/// The built-in scenarios.
public enum ScenarioCatalogue {
    /// Launch, a short active phase of inputs, a long idle phase, terminate: shows launch cost,
    /// main-thread blocking while active, and what the app does when nothing is asked of it.
    public static let standard = Scenario(
        name: "standard",
        summary: "launch, 2 s of input (4 events), 8 s idle, terminate",
        steps: [.launch] + ScenarioStep.repeating([.input(kind: "tap"), .wait(seconds: 0.5)], times: 4)
            + [.wait(seconds: 8), .terminate]
    )

    /// Launch, 30 s with nothing delivered, terminate: the ground truth for an idle app. 30 s
    /// because even an app that does nothing has 3–4 wakeups it cannot avoid (exec, PAPI's event
    /// setup at launch — 1 or 2, as closing a perf event waits for an RCU grace period — and the
    /// terminate message): over 30 s they stay well under 0.2/s. Its idle phase itself shows 0.
    public static let idle = Scenario(
        name: "idle",
        summary: "launch, 30 s idle, terminate",
        steps: [.launch, .wait(seconds: 30), .terminate]
    )

    /// Launch, 10 s idle, terminate: long enough for a 1 Hz wakeup to read as one a second
    /// (ten of them), short enough for a matrix of thread workloads (docs/THREADS.md).
    public static let shortIdle = Scenario(
        name: "short-idle",
        summary: "launch, 10 s idle, terminate",
        steps: [.launch, .wait(seconds: 10), .terminate]
    )

    /// Launch, six inputs 0.25 s apart (the user edits, changes settings, downloads, exports),
    /// 1.5 s for coalesced saves to land, terminate: about 3.5 s, enough to separate the disk
    /// pairs, which differ in what they write, not in how long they wait.
    public static let diskSession = Scenario(
        name: "disk-session",
        summary: "launch, 6 inputs 0.25 s apart, 1.5 s idle, terminate",
        steps: [.launch] + ScenarioStep.repeating([.input(kind: "edit"), .wait(seconds: 0.25)], times: 6)
            + [.wait(seconds: 1.5), .terminate]
    )

    /// Every built-in scenario.
    public static let all: [Scenario] = [standard, idle, shortIdle, diskSession] + lifecycle + network + memory + program

    /// The scenario called `name`, if there is one.
    public static func named(_ name: String) -> Scenario? { all.first { $0.name == name } }
}
