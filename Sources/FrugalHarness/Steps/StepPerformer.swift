import FrugalCore

/// How the harness carries out one kind of step, for an app (over the FrugalKit protocol) and for
/// a black-box program (with signals and the freezer). The kind's facts are its ``StepKind`` in
/// FrugalCore, which does no I/O; what the harness does for it is here, so `RunSession.perform`
/// is a lookup by kind rather than a switch over every kind.
///
/// Adding a kind: its `StepKind` (FrugalCore/Scenario/Steps), then its performer in a file of
/// this folder (`StepPerformer+Mark.swift`) with one line in ``all``. `StepPerformerTests`
/// fails for a kind of `StepKind.all` without a performer, or whose performer disagrees with
/// `appliesToBlackBox`; a plan with such a step is refused before anything starts
/// (``missing(in:)``).
struct StepPerformer: Sendable {
    /// Carries out `step` (of this performer's kind) as step `index`, which began at `start`
    /// (monotonic ns), and records it; sets the session's ending when the scenario cannot go on.
    typealias Perform = @Sendable (_ session: RunSession, _ step: ScenarioStep, _ index: Int, _ start: UInt64) -> Void

    /// The kind it carries out.
    let kind: StepKind
    /// For an app.
    let app: Perform
    /// For a black-box program; nil exactly when the kind does not apply to one
    /// (``StepKind/appliesToBlackBox``): the step is then recorded as not applicable.
    let program: Perform?

    init(_ kind: StepKind, app: @escaping Perform, program: Perform?) {
        self.kind = kind
        self.app = app
        self.program = program
    }

    /// A kind carried out the same way for an app and a program.
    init(_ kind: StepKind, both perform: @escaping Perform) {
        self.init(kind, app: perform, program: perform)
    }

    /// Every performer, one per kind.
    static let all: [StepPerformer] = builtIn + [.mark]

    private static let byName = Dictionary(all.map { ($0.kind.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// The performer of `kind`, nil when this build has none.
    static func of(_ kind: StepKind) -> StepPerformer? { byName[kind.name] }

    /// The kinds of `scenario`'s steps no performer carries out, by name (empty when it can run).
    static func missing(in scenario: Scenario) -> [String] {
        var seen = Set<String>()
        return scenario.steps.map(\.kind).filter { of($0) == nil && seen.insert($0.name).inserted }.map(\.name)
    }
}

/// A step's argument in the form its kind declares: `ScenarioStep` holds no other, so a performer
/// reads it without a case to handle.
extension ScenarioStep {
    var seconds: Double {
        guard case .seconds(let seconds) = argument else { preconditionFailure("\(kind.name) has no seconds argument") }
        return seconds
    }

    var text: String {
        guard case .text(let text) = argument else { preconditionFailure("\(kind.name) has no text argument") }
        return text
    }

    var bytes: Int {
        guard case .bytes(let bytes) = argument else { preconditionFailure("\(kind.name) has no size argument") }
        return bytes
    }

    var level: MemoryWarningLevel {
        guard case .level(let level) = argument else { preconditionFailure("\(kind.name) has no level argument") }
        return level
    }
}
