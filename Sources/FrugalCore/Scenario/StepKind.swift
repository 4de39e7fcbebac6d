/// Everything Frugal knows about one kind of scenario step, declared once: its name (the YAML
/// and JSON key), the form of its argument, what it means, whether an audit times it, what it
/// asks of the machine, and how it runs for an app and for a program (in ``StepHarness``'s
/// actions). `ScenarioStep`'s name, description and Codable form, frugal.yml's validation, the
/// scheduler's demand, the timeline's drawing, `Scenario.waitSeconds` and the harness's
/// `RunSession.perform` all read these facts rather than switching over the steps.
///
/// Adding a kind: a `StepKind+Name.swift` file in `Scenario/Steps` that declares it (and the
/// ``ScenarioStep`` factory Swift code builds it with), and one line in ``all``
/// (docs/EXTENDING.md, "Adding a step kind").
public struct StepKind: Sendable, Hashable {
    /// The name in the vocabulary and the key of the one-key object form (`wait`, `pressure`).
    public let name: String
    /// What the step does, in a sentence (for docs and error messages).
    public let summary: String
    /// The form of its argument; ``StepArgument/Form/none`` for a step written as a bare name.
    public let form: StepArgument.Form
    /// What the bare name means for a kind that takes an argument (`interrupt` alone lasts 1 s),
    /// nil when the argument is required. A kind of form `none` is always written bare.
    public let bareArgument: StepArgument?
    /// What times this step, when something does (the launch-time audit, the input-response
    /// audit, ...), nil when every verdict about it is a count (wakeups, bytes, files): a run whose
    /// timed steps are over can share the machine without its verdicts moving.
    public let timedBy: String?
    /// Whether it needs a memory cgroup for the run (a real limit or a hog inside it).
    public let needsMemoryCgroup: Bool
    /// Whether a run with this step needs the machine to itself throughout (memory pressure reaches
    /// past the run's own cgroup), with the reason the scheduler prints.
    public let needsMachine: Bool
    /// Whether it runs a helper inside `frugal-workload-host` (the balloon).
    public let needsWorkloadHost: Bool
    /// Whether the timeline draws it as a lifecycle mark (a change of process or state) rather
    /// than a small label.
    public let drawnAsLifecycle: Bool
    /// How the timeline labels it.
    public let label: Label
    /// How a step of this kind runs for an app: the ``StepHarness`` actions it takes.
    public let runForApp: Run
    /// How it runs for a black-box program; nil when it does not apply to one
    /// (``appliesToBlackBox``): the harness then records it as not applicable.
    public let runForProgram: Run?
    /// A problem with a well-formed step that frugal.yml should refuse (an unknown network
    /// profile), nil when it is fine.
    let check: @Sendable (StepArgument) -> String?

    public init(name: String, summary: String, form: StepArgument.Form, bareArgument: StepArgument? = nil,
                timedBy: String?, needsMemoryCgroup: Bool = false, needsMachine: Bool = false,
                needsWorkloadHost: Bool = false, drawnAsLifecycle: Bool = false, label: Label = .name,
                check: @escaping @Sendable (StepArgument) -> String? = { _ in nil },
                app: @escaping Run, program: ForProgram) {
        self.name = name
        self.summary = summary
        self.form = form
        self.bareArgument = form == .none ? StepArgument.none : bareArgument
        self.timedBy = timedBy
        self.needsMemoryCgroup = needsMemoryCgroup
        self.needsMachine = needsMachine
        self.needsWorkloadHost = needsWorkloadHost
        self.drawnAsLifecycle = drawnAsLifecycle
        self.label = label
        self.check = check
        runForApp = app
        switch program {
        case .same: runForProgram = app
        case .runs(let run): runForProgram = run
        case .notApplicable: runForProgram = nil
        }
    }

    /// How the timeline's steps lane labels a step of this kind.
    public enum Label: Sendable, Equatable {
        /// No label (a step that only passes time); a step with a problem still gets its tooltip.
        case hidden
        /// The kind's name alone (`input`, not `input(tap)`: the lane is narrow).
        case name
        /// `prefix` then the argument (`warning critical`, `pressure 48MiB`).
        case argument(prefix: String)
    }

    /// Whether a black-box program can be given it: without a FrugalKit event loop the harness
    /// has nothing to deliver an `interrupt` or a `notify` to. One fact with how it runs: a kind
    /// applies exactly when it says how it runs for a program.
    public var appliesToBlackBox: Bool { runForProgram != nil }

    /// Whether an audit judges how long this step (or what it set off) took.
    public var isTimingJudged: Bool { timedBy != nil }

    /// The step of this kind with `argument`, nil when the argument is of another form.
    public func step(_ argument: StepArgument) -> ScenarioStep? { ScenarioStep(kind: self, argument: argument) }

    /// Kinds are told apart by name: the vocabulary has one kind per name (`StepKindTests`).
    public static func == (lhs: StepKind, rhs: StepKind) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Why frugal.yml should refuse `argument` beyond its form, nil when it is fine.
    public func problem(with argument: StepArgument) -> String? { check(argument) }

    /// Every kind, in the order error messages and docs list them.
    public static let all: [StepKind] = [
        .launch, .wait, .input, .terminate, .interrupt, .home, .foreground, .kill, .relaunch,
        .notify, .network, .fault, .memoryWarning, .pressure, .balloon, .mark,
        .background,
    ]

    /// The kind called `name`, nil when there is none.
    public static func named(_ name: String) -> StepKind? { all.first { $0.name == name } }
}

/// A step's argument, in one of the few forms a step's argument takes.
public enum StepArgument: Sendable, Equatable, Hashable {
    case none
    /// Seconds, from 0 to ``ScenarioStep/maximumWaitSeconds``: time that passes in the step.
    case seconds(Double)
    /// A name (an input kind, a notification, a profile, a fault).
    case text(String)
    /// A positive size in bytes, up to ``ByteCount/maximum``; YAML may write it as `"48MiB"`.
    case bytes(Int)
    /// A memory warning's level.
    case level(MemoryWarningLevel)

    /// The forms, for a kind to declare which one it takes.
    public enum Form: Sendable, Equatable {
        case none, seconds, text, bytes, level
    }

    /// The form this argument is of.
    public var form: Form {
        switch self {
        case .none: return .none
        case .seconds: return .seconds
        case .text: return .text
        case .bytes: return .bytes
        case .level: return .level
        }
    }

    /// The text of a text argument (an input's kind, a profile, a mark's name), nil for another form.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// How the step's short description shows the argument (`2.5`, `48MiB`); nil for none.
    var display: String? {
        switch self {
        case .none: return nil
        case .seconds(let seconds): return ScenarioStep.format(seconds)
        case .text(let text): return text
        case .bytes(let bytes): return ByteCount.format(bytes)
        case .level(let level): return level.rawValue
        }
    }

    /// The seconds that pass in a step with this argument (0 for any other form).
    public var seconds: Double {
        if case .seconds(let seconds) = self { return seconds }
        return 0
    }
}
