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

    /// The step's kind and its argument: the one switch over the cases. Every other fact about
    /// a step (its name, its written form, whether it is timed, what it asks of the machine) is
    /// read from its ``StepKind``.
    public var parts: (kind: StepKind, argument: StepArgument) {
        switch self {
        case .launch: return (.launch, .none)
        case .wait(let seconds): return (.wait, .seconds(seconds))
        case .input(let kind): return (.input, .text(kind))
        case .terminate: return (.terminate, .none)
        case .interrupt(let seconds): return (.interrupt, .seconds(seconds))
        case .home: return (.home, .none)
        case .foreground: return (.foreground, .none)
        case .kill: return (.kill, .none)
        case .relaunch: return (.relaunch, .none)
        case .notify(let name): return (.notify, .text(name))
        case .network(let profile): return (.network, .text(profile))
        case .fault(let kind): return (.fault, .text(kind))
        case .memoryWarning(let level): return (.memoryWarning, .level(level))
        case .pressure(let limit): return (.pressure, .bytes(limit))
        case .balloon(let bytes): return (.balloon, .bytes(bytes))
        }
    }

    /// What kind of step this is.
    public var kind: StepKind { parts.kind }

    /// The step's argument (``StepArgument/none`` for a bare step).
    public var argument: StepArgument { parts.argument }

    /// The step's name in the vocabulary (`launch`, `wait`, ...).
    public var name: String { kind.name }

    /// A short human description (`wait(2.5)`).
    public var description: String {
        let (kind, argument) = parts
        return argument.display.map { "\(kind.name)(\($0))" } ?? kind.name
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

    /// Reads a bare name or a one-key object, by the kinds' declared forms.
    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let bare = try? single.decode(String.self) {
            guard let kind = StepKind.named(bare), let argument = kind.bareArgument, let step = kind.step(argument) else {
                let names = StepKind.all.filter { $0.bareArgument != nil }.map(\.name).joined(separator: ", ")
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "unknown step '\(bare)' (steps without an argument: \(names))"))
            }
            self = step
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a step is a name or an object with exactly one key"))
        }
        guard let kind = StepKind.named(key.stringValue), kind.form != .none else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown step '\(key.stringValue)'")
        }
        let argument = try Self.decodeArgument(kind, key: key, in: container)
        guard let step = kind.step(argument) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(kind.name) cannot be built from \(argument)")
        }
        self = step
    }

    /// The argument under `key`, in the form `kind` declares, with the limits each form has.
    private static func decodeArgument(_ kind: StepKind, key: Key, in container: KeyedDecodingContainer<Key>) throws -> StepArgument {
        switch kind.form {
        case .none:
            return .none
        case .seconds:
            let seconds = try container.decode(Double.self, forKey: key)
            guard seconds >= 0, seconds <= ScenarioStep.maximumWaitSeconds else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(kind.name) needs a number of seconds from 0 to \(Int(ScenarioStep.maximumWaitSeconds))")
            }
            return .seconds(seconds)
        case .text:
            return .text(try container.decode(String.self, forKey: key))
        case .level:
            let text = try container.decode(String.self, forKey: key)
            guard let level = MemoryWarningLevel(rawValue: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(kind.name) needs warning, critical or normal")
            }
            return .level(level)
        case .bytes:
            let bytes: Int?
            if let number = try? container.decode(Int.self, forKey: key) { bytes = number } else { bytes = ByteCount.parse(try container.decode(String.self, forKey: key)) }
            guard let bytes, bytes > 0, bytes <= ByteCount.maximum else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(kind.name) needs a positive size up to 1 PiB (bytes, or like \"48MiB\")")
            }
            return .bytes(bytes)
        }
    }

    /// Writes a bare name for a kind without an argument, a one-key object otherwise.
    public func encode(to encoder: Encoder) throws {
        let (kind, argument) = parts
        let key = Key(stringValue: kind.name)
        switch argument {
        case .none:
            var single = encoder.singleValueContainer()
            try single.encode(kind.name)
        case .seconds(let seconds):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(seconds, forKey: key)
        case .text(let text):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(text, forKey: key)
        case .level(let level):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(level.rawValue, forKey: key)
        case .bytes(let bytes):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(bytes, forKey: key)
        }
    }
}
