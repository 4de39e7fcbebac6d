/// One audit of the catalogue: what the guide says, the number Frugal measures for it, and
/// how that number is scored.
public struct Rule: Codable, Sendable, Equatable {
    /// Stable id (`power.avoid-polling`); users and CI configs name audits by it.
    public var id: String
    public var category: RuleCategory
    /// A short title for reports.
    public var title: String
    /// The guide's section the rule comes from (chapter › section).
    public var guideSection: String
    /// The guide's own words, quoted.
    public var guideQuote: String
    /// What number is measured, in a sentence.
    public var measures: String
    /// The unit of the measured number.
    public var unit: String
    /// How the number becomes a score.
    public var scoring: ScoringCurve
    /// Where the control points come from, and why they differ from the starting proposal (docs/RULES.md) if they do.
    public var calibration: String
    /// The audit's weight inside its category.
    public var weight: Double
    /// Whether this version of Frugal measures it yet; planned rules are listed but never scored.
    public var measured: Bool
    /// What the audit decides from: the process's own evidence (threads, memory, files, the
    /// wire) and which FrugalKit events, if any, it needs (RuleCatalogue+Evidence.swift).
    public var evidence: String?
    /// What makes the audit not applicable to a run.
    public var notApplicableWhen: String?

    public init(id: String, category: RuleCategory, title: String, guideSection: String, guideQuote: String,
                measures: String, unit: String, scoring: ScoringCurve, calibration: String,
                weight: Double = 1, measured: Bool) {
        self.id = id
        self.category = category
        self.title = title
        self.guideSection = guideSection
        self.guideQuote = guideQuote
        self.measures = measures
        self.unit = unit
        self.scoring = scoring
        self.calibration = calibration
        self.weight = weight
        self.measured = measured
        self.evidence = RuleCatalogue.evidence[id]?.evidence
        self.notApplicableWhen = RuleCatalogue.evidence[id]?.notApplicable
    }
}

/// The categories of audits; each has a score, the weighted mean of its audits.
public enum RuleCategory: String, Codable, Sendable, CaseIterable {
    case power, disk, memory, network, responsiveness, lifecycle

    /// A title for reports.
    public var title: String {
        switch self {
        case .power: return "Power (CPU)"
        case .disk: return "Disk"
        case .memory: return "Memory"
        case .network: return "Network"
        case .responsiveness: return "Responsiveness (main thread)"
        case .lifecycle: return "Lifecycle"
        }
    }

    /// The category's weight in the overall score (all equal: no category is more of the guide than another; docs/SCORING.md).
    public var weight: Double { 1 }
}

/// The rule catalogue (summarised in docs/RULES.md), assembled from one list per category.
public enum RuleCatalogue {
    /// Every rule, measured or planned, in catalogue order.
    public static let all: [Rule] = power + disk + memory + network + responsiveness + lifecycle

    /// The rule with `id`, if any.
    public static func rule(_ id: String) -> Rule? { all.first { $0.id == id } }

    /// The sources of the numbers that do not come from the guide.
    static let appleLimits = "Apple's kernel resource limits as printed in diagnostic reports (wakeups 150/s over 300 s; CPU 80% over 60 s; disk writes ~1 GB per 24 h)"
    static let rulesProposal = "Frugal's starting proposal (docs/RULES.md)"
}
