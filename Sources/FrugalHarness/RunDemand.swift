import FrugalCore

/// What a run asks of the machine, for ``ResourceScheduler``: whether it can share the machine
/// with other light runs without either's measurements moving.
public enum RunDemand: Sendable, Equatable {
    /// Sleeps most of its time and is judged on counts (wakeups, bytes, transfers, files), not
    /// on how long things took: another sleeping run beside it changes none of its verdicts.
    case light
    /// Needs the machine to itself, with the reason: CPU-bound, judged on timing (launch,
    /// main-thread waiting, background time), or under memory pressure.
    case exclusive(String)
    /// Needs the machine to itself for its launch and inputs, then only sleeps: its scenario ends
    /// with a wait of at least ``idleTailSeconds`` and terminate (``idleTail(of:)``), and from the
    /// start of that wait it sleeps beside others as a light run does. A built-in workload judged
    /// on timing whose work is done by then (`launch.*` under `standard`: 8 s of idle).
    case exclusiveUntilIdle(String)
    /// Judged on timing only in its launch, inputs, terminate and foreground
    /// (``FrugalCore/ScenarioStep/isJudgedOnTime``), and asleep or waiting on the network or the
    /// disk's own flush otherwise: it holds the machine only for those steps (``StepGate``), and
    /// sleeps beside other runs between them. Not for a run that uses the CPU or writes much
    /// between its steps (a background thread's work, a coalesced save): that one stays exclusive.
    case gated(String)

    /// A scenario that squeezes memory (a cgroup limit, a balloon, warnings) needs the machine:
    /// reclaim and the balloon reach past the run's own cgroup.
    public static func of(_ scenario: Scenario) -> RunDemand? {
        // Each step kind declares whether it needs the machine (`StepKind.needsMachine`).
        scenario.steps.contains { $0.kind.needsMachine } ? .exclusive("memory pressure (\(scenario.name))") : nil
    }

    public var isLight: Bool { self == .light }

    /// Whether the run holds the machine only for its judged steps (``gated(_:)``).
    public var isGated: Bool {
        if case .gated = self { return true }
        return false
    }

    /// Whether the run holds the machine from its start (``exclusive(_:)``,
    /// ``exclusiveUntilIdle(_:)``).
    public var isExclusive: Bool { !isLight && !isGated }

    /// The shortest closing wait after which an exclusive run is let go: long enough that the
    /// launch of what starts next is over well before this run's terminate (a launch takes well
    /// under a second), and past the coalescing timers (about 1 s) some apps save on.
    public static let idleTailSeconds = 2.0

    /// The index of the closing wait, when `scenario` ends with a wait of at least
    /// ``idleTailSeconds`` and terminate; nil otherwise.
    public static func idleTail(of scenario: Scenario) -> Int? {
        let steps = scenario.steps
        guard steps.count >= 3, steps.last == .terminate, steps[steps.count - 2].kind == .wait,
              steps[steps.count - 2].argument.seconds >= idleTailSeconds else { return nil }
        return steps.count - 2
    }

    /// What `frugal run` asks for a built-in workload under `scenario`: memory pressure needs the
    /// machine throughout; a workload known to sleep (`isLight`) shares it; any other has it to
    /// itself, until its closing idle when it has one.
    /// `isGated`: a workload known to be judged on timing only in its steps
    /// (`WorkloadCatalogue.stepGatedWorkloads`) holds the machine only for them.
    public static func builtIn(scenario: Scenario, isLight: Bool, isGated: Bool = false) -> RunDemand {
        if let pressure = of(scenario) { return pressure }
        if isLight { return .light }
        if isGated { return .gated("judged on timing in its steps only; sleeps between them") }
        return idleTail(of: scenario) == nil ? .exclusive("CPU-bound or judged on timing")
            : .exclusiveUntilIdle("judged on timing; sleeps through its closing wait")
    }
}
