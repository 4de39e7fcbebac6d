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

    /// A scenario that squeezes memory (a cgroup limit, a balloon, warnings) needs the machine:
    /// reclaim and the balloon reach past the run's own cgroup.
    public static func of(_ scenario: Scenario) -> RunDemand? {
        for step in scenario.steps {
            switch step {
            case .pressure, .balloon, .memoryWarning: return .exclusive("memory pressure (\(scenario.name))")
            default: continue
            }
        }
        return nil
    }

    public var isLight: Bool { self == .light }
}
