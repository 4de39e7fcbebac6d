/// One step of a scenario's timeline: a kind and its argument, as values. Steps run in order;
/// `wait` is where time passes. Everything about a kind (its name, its written form, whether it is
/// timed, what it asks of the machine) is declared once in its ``StepKind``, in its own
/// `Scenario/Steps/StepKind+<Name>.swift`, with the factory Swift code builds it with
/// (`.wait(seconds: 2.5)`, `.launch`), and how it runs, in ``StepHarness``'s actions.
///
/// Serialised as a bare string for steps without an argument (`"launch"`) and as a one-key
/// object otherwise (`{"wait": 2.5}`, `{"input": "refresh"}`), so a YAML scenario file reads
/// naturally: `- launch`, `- wait: 2.5`.
public struct ScenarioStep: Sendable, Hashable {
    /// What kind of step this is.
    public let kind: StepKind
    /// The step's argument (``StepArgument/none`` for a bare step), of the form its kind declares.
    public let argument: StepArgument

    /// The step of `kind` with `argument`; nil when the argument is not of the kind's form.
    public init?(kind: StepKind, argument: StepArgument) {
        guard argument.form == kind.form else { return nil }
        self.kind = kind
        self.argument = argument
    }

    /// For a kind's own factory, which passes an argument of its form.
    init(_ kind: StepKind, _ argument: StepArgument) {
        precondition(argument.form == kind.form, "\(kind.name) takes a \(kind.form) argument, not \(argument)")
        self.kind = kind
        self.argument = argument
    }

    /// The step's kind and its argument.
    public var parts: (kind: StepKind, argument: StepArgument) { (kind, argument) }

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

    /// `steps`, `times` over, one after another (a scenario's rounds of input and wait). Typed,
    /// where `Array(repeating:count:).flatMap { $0 }` inside a scenario's `+` chain took the type
    /// checker 0.2 s per scenario in every build.
    static func repeating(_ steps: [ScenarioStep], times: Int) -> [ScenarioStep] {
        (0..<max(0, times)).flatMap { (_: Int) -> [ScenarioStep] in steps }
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
