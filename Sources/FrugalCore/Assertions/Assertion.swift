/// How much a failing assertion matters, as in Lighthouse CI.
public enum AssertionLevel: String, Codable, Sendable, CaseIterable {
    /// Not checked.
    case off
    /// Reported; never fails the run.
    case warn
    /// Fails the run (exit 2).
    case error
}

/// What an assertion is about: an audit, or a category (`categories:<id>` in a config).
public enum AssertionTarget: Codable, Sendable, Hashable, CustomStringConvertible {
    case audit(String)
    case category(RuleCategory)

    /// The config's spelling: the audit id, or `categories:<id>`.
    public var description: String {
        switch self {
        case .audit(let id): return id
        case .category(let category): return "categories:" + category.rawValue
        }
    }

    /// Parses the config's spelling; nil for an unknown audit or category.
    public init?(_ text: String) {
        if text.hasPrefix("categories:") {
            guard let category = RuleCategory(rawValue: String(text.dropFirst("categories:".count))) else { return nil }
            self = .category(category)
        } else {
            guard RuleCatalogue.rule(text) != nil else { return nil }
            self = .audit(text)
        }
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let target = AssertionTarget(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown audit or category '\(text)'"))
        }
        self = target
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// One assertion: a level and the bounds the median over repetitions must meet.
public struct Assertion: Codable, Sendable, Equatable {
    public var target: AssertionTarget
    public var level: AssertionLevel
    /// The median score must be at least this (0–1).
    public var minScore: Double?
    /// The audit's median numeric value must be at most this (audits only).
    public var maxNumericValue: Double?

    public init(target: AssertionTarget, level: AssertionLevel, minScore: Double? = nil, maxNumericValue: Double? = nil) {
        self.target = target
        self.level = level
        self.minScore = minScore
        self.maxNumericValue = maxNumericValue
    }
}

/// A set of assertions: a preset's, overridden per target by the config's own.
public struct AssertionSet: Codable, Sendable, Equatable {
    /// The preset it started from, if any.
    public var preset: String?
    public var assertions: [Assertion]

    public init(preset: String?, assertions: [Assertion]) {
        self.preset = preset
        self.assertions = assertions
    }

    /// The preset's assertions with `overrides` replacing those of the same target.
    public static func merging(preset: AssertionPreset?, overrides: [Assertion]) -> AssertionSet {
        var merged = preset?.assertions ?? []
        for assertion in overrides {
            if let index = merged.firstIndex(where: { $0.target == assertion.target }) {
                merged[index] = assertion
            } else {
                merged.append(assertion)
            }
        }
        return AssertionSet(preset: preset?.rawValue, assertions: merged)
    }
}

/// The built-in presets.
public enum AssertionPreset: String, Codable, Sendable, CaseIterable {
    /// Every measured audit is an error below 0.5 (the fail band) and a warning below 0.9.
    /// One level per audit, so: `error` with `minScore: 0.5`; the warning band shows in reports.
    case recommended = "frugal:recommended"
    /// Every measured audit and every category is an error below 0.9 (anything not passing).
    case strict = "frugal:strict"

    public var assertions: [Assertion] {
        let audits = RuleCatalogue.all.filter(\.measured).map(\.id)
        switch self {
        case .recommended:
            return audits.map { Assertion(target: .audit($0), level: .error, minScore: 0.5) }
        case .strict:
            return audits.map { Assertion(target: .audit($0), level: .error, minScore: 0.9) }
                + RuleCategory.allCases.map { Assertion(target: .category($0), level: .error, minScore: 0.9) }
        }
    }
}
