/// One step of a scenario's timeline. Steps run in order; `wait` is where time passes.
///
/// Serialised as a bare string for steps without an argument (`"launch"`) and as a one-key
/// object otherwise (`{"wait": 2.5}`, `{"input": "refresh"}`), so a YAML scenario file reads
/// naturally: `- launch`, `- wait: 2.5`.
public enum ScenarioStep: Sendable, Equatable, Hashable {
    /// Start the app (exec); the launch watchdog runs until it handles its first event.
    case launch
    /// Let time pass with nothing delivered: an idle phase of `seconds`.
    case wait(seconds: Double)
    /// Deliver an input event of `kind` to the main run loop and wait until it is handled.
    case input(kind: String)
    /// Ask the running app to terminate (`willTerminate`, then exit).
    case terminate
    /// An interruption (an alert, a call) lasting `seconds`: active → inactive → active, with
    /// `willResignActive` and `didBecomeActive`. The inactive phase is sampled at both ends.
    case interrupt(seconds: Double)
    /// The user leaves the app: → inactive → background (`didEnterBackground`, 5 s watchdog).
    /// Once background tasks have ended (or the background time ran out) and the background grace
    /// has passed, the harness suspends the process for real (SIGSTOP of its process group).
    case home
    /// The user returns: the suspended process is continued (SIGCONT), `willEnterForeground`,
    /// queued notifications, then `didBecomeActive`.
    case foreground
    /// The system kills the app (SIGKILL), as it kills suspended apps: no callback.
    case kill
    /// Start the app again: a new process in the same run and the same sandbox.
    case relaunch
    /// A system notification named `name` (`significant-time-change`, ...): delivered at once to
    /// a running app, queued (and coalesced) for a suspended one until it returns to the foreground.
    case notify(name: String)
    /// Change the shaping proxy's link conditions to the built-in profile `profile` (`lte`,
    /// `3g`, `offline`, ...), for new and open connections.
    case network(profile: String)
    /// Inject a fault into the proxy's next connection: `reset` (RST after 256 bytes up),
    /// `reset-response` (RST after 256 bytes down), `stall` (stop forwarding after 256 bytes up),
    /// `refuse`; `KIND:N` for the next N connections.
    case fault(kind: String)
    /// Deliver a low-memory warning of `level` to the app (the simulated, iOS-style signal).
    case memoryWarning(level: MemoryWarningLevel)
    /// Shrink the workload's memory cgroup limit to `limitBytes`: real kernel reclaim, then OOM.
    case pressure(limitBytes: Int)
    /// Start a memory hog of `bytes` in the workload's cgroup.
    case balloon(bytes: Int)

    /// The step's name in the vocabulary (`launch`, `wait`, ...).
    public var name: String {
        switch self {
        case .launch: return "launch"
        case .wait: return "wait"
        case .input: return "input"
        case .terminate: return "terminate"
        case .interrupt: return "interrupt"
        case .home: return "home"
        case .foreground: return "foreground"
        case .kill: return "kill"
        case .relaunch: return "relaunch"
        case .notify: return "notify"
        case .network: return "network"
        case .fault: return "fault"
        case .memoryWarning: return "memoryWarning"
        case .pressure: return "pressure"
        case .balloon: return "balloon"
        }
    }

    /// A short human description (`wait(2.5)`).
    public var description: String {
        switch self {
        case .launch, .terminate, .home, .foreground, .kill, .relaunch: return name
        case .wait(let seconds): return "wait(\(ScenarioStep.format(seconds)))"
        case .input(let kind): return "input(\(kind))"
        case .interrupt(let seconds): return "interrupt(\(ScenarioStep.format(seconds)))"
        case .notify(let name): return "notify(\(name))"
        case .network(let profile): return "network(\(profile))"
        case .fault(let kind): return "fault(\(kind))"
        case .memoryWarning(let level): return "memoryWarning(\(level.rawValue))"
        case .pressure(let bytes): return "pressure(\(ByteCount.format(bytes)))"
        case .balloon(let bytes): return "balloon(\(ByteCount.format(bytes)))"
        }
    }

    /// How long a bare `interrupt` lasts, seconds.
    public static let defaultInterruptSeconds = 1.0

    /// Whole seconds without the `.0`; a number past `Int`'s range (`{wait: 1e300}` in a
    /// frugal.yml, found by FuzzReplayTests) as `Double` prints it rather than trapping.
    static func format(_ seconds: Double) -> String {
        Int(exactly: seconds).map(String.init) ?? String(seconds)
    }
}

extension ScenarioStep: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The longest a `wait` or `interrupt` step may be: an hour. A scenario is a test of an
    /// app's behaviour, not a soak, and `{wait: 1e300}` once made a run that never ended.
    public static let maximumWaitSeconds: Double = 3600

    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let bare = try? single.decode(String.self) {
            switch bare {
            case "launch": self = .launch
            case "terminate": self = .terminate
            case "interrupt": self = .interrupt(seconds: ScenarioStep.defaultInterruptSeconds)
            case "home": self = .home
            case "foreground": self = .foreground
            case "kill": self = .kill
            case "relaunch": self = .relaunch
            default:
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "unknown step '\(bare)' (steps without an argument: launch, terminate, interrupt, home, foreground, kill, relaunch)"))
            }
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a step is a name or an object with exactly one key"))
        }
        switch key.stringValue {
        case "wait":
            let seconds = try container.decode(Double.self, forKey: key)
            guard seconds >= 0, seconds <= ScenarioStep.maximumWaitSeconds else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "wait needs a number of seconds from 0 to \(Int(ScenarioStep.maximumWaitSeconds))")
            }
            self = .wait(seconds: seconds)
        case "input": self = .input(kind: try container.decode(String.self, forKey: key))
        case "interrupt":
            let seconds = try container.decode(Double.self, forKey: key)
            guard seconds >= 0, seconds <= ScenarioStep.maximumWaitSeconds else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "interrupt needs a number of seconds from 0 to \(Int(ScenarioStep.maximumWaitSeconds))")
            }
            self = .interrupt(seconds: seconds)
        case "notify": self = .notify(name: try container.decode(String.self, forKey: key))
        case "network": self = .network(profile: try container.decode(String.self, forKey: key))
        case "fault": self = .fault(kind: try container.decode(String.self, forKey: key))
        case "memoryWarning":
            let text = try container.decode(String.self, forKey: key)
            guard let level = MemoryWarningLevel(rawValue: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "memoryWarning needs warning, critical or normal")
            }
            self = .memoryWarning(level: level)
        case "pressure", "balloon":
            let bytes: Int?
            if let number = try? container.decode(Int.self, forKey: key) { bytes = number } else { bytes = ByteCount.parse(try container.decode(String.self, forKey: key)) }
            guard let bytes, bytes > 0, bytes <= ByteCount.maximum else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.stringValue) needs a positive size up to 1 PiB (bytes, or like \"48MiB\")")
            }
            self = key.stringValue == "pressure" ? .pressure(limitBytes: bytes) : .balloon(bytes: bytes)
        default:
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown step '\(key.stringValue)'")
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .launch, .terminate, .home, .foreground, .kill, .relaunch:
            var single = encoder.singleValueContainer()
            try single.encode(name)
        case .interrupt(let seconds):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(seconds, forKey: Key(stringValue: "interrupt"))
        case .notify(let name):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(name, forKey: Key(stringValue: "notify"))
        case .wait(let seconds):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(seconds, forKey: Key(stringValue: "wait"))
        case .input(let kind):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(kind, forKey: Key(stringValue: "input"))
        case .network(let profile):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(profile, forKey: Key(stringValue: "network"))
        case .fault(let kind):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(kind, forKey: Key(stringValue: "fault"))
        case .memoryWarning(let level):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(level.rawValue, forKey: Key(stringValue: name))
        case .pressure(let bytes), .balloon(let bytes):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(bytes, forKey: Key(stringValue: name))
        }
    }
}
