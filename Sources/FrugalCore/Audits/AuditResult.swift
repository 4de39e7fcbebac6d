/// An audit's verdict on one run (or, aggregated, on several repetitions).
public struct AuditResult: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    /// In [0, 1]; nil when the audit did not apply or could not be measured.
    public var score: Double?
    public var scoreDisplayMode: ScoreDisplayMode
    public var numericValue: Double?
    public var numericUnit: String
    /// The value as a person reads it (`3.1 wakeups/s while idle`).
    public var displayValue: String
    /// What the number is made of: timestamps, handlers, files, transfers.
    public var evidence: [Evidence]
    /// Why there is no score, for `notApplicable` and `unavailable`.
    public var explanation: String?

    enum CodingKeys: String, CodingKey {
        case id, title, score, scoreDisplayMode, numericValue, numericUnit, displayValue, evidence, explanation
    }

    public init(id: String, title: String, score: Double?, scoreDisplayMode: ScoreDisplayMode, numericValue: Double?,
                numericUnit: String, displayValue: String, evidence: [Evidence] = [], explanation: String? = nil) {
        self.id = id
        self.title = title
        self.score = score
        self.scoreDisplayMode = scoreDisplayMode
        self.numericValue = numericValue
        self.numericUnit = numericUnit
        self.displayValue = displayValue
        self.evidence = evidence
        self.explanation = explanation
    }

    /// `evidence` may be absent: an aggregated audit (`AggregatedAudit`) leaves it out, since
    /// each run keeps its own.
    public init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try fields.decode(String.self, forKey: .id),
                  title: try fields.decode(String.self, forKey: .title),
                  score: try fields.decodeIfPresent(Double.self, forKey: .score),
                  scoreDisplayMode: try fields.decode(ScoreDisplayMode.self, forKey: .scoreDisplayMode),
                  numericValue: try fields.decodeIfPresent(Double.self, forKey: .numericValue),
                  numericUnit: try fields.decode(String.self, forKey: .numericUnit),
                  displayValue: try fields.decode(String.self, forKey: .displayValue),
                  evidence: try fields.decodeIfPresent([Evidence].self, forKey: .evidence) ?? [],
                  explanation: try fields.decodeIfPresent(String.self, forKey: .explanation))
    }

    public func encode(to encoder: Encoder) throws {
        try encode(to: encoder, evidence: true)
    }

    /// Encodes the fields into `encoder`'s keyed container; `evidence: false` leaves the evidence
    /// out, for an aggregated audit, which adds its spread to the same object.
    func encode(to encoder: Encoder, evidence withEvidence: Bool) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(title, forKey: .title)
        try fields.encodeIfPresent(score, forKey: .score)
        try fields.encode(scoreDisplayMode, forKey: .scoreDisplayMode)
        try fields.encodeIfPresent(numericValue, forKey: .numericValue)
        try fields.encode(numericUnit, forKey: .numericUnit)
        try fields.encode(displayValue, forKey: .displayValue)
        if withEvidence { try fields.encode(evidence, forKey: .evidence) }
        try fields.encodeIfPresent(explanation, forKey: .explanation)
    }

    /// The same audit, judged not to apply: no score, no value, no evidence, so it counts in no
    /// category and not overall; `reason` says why.
    public func markedNotApplicable(reason: String) -> AuditResult {
        var result = self
        result.score = nil
        result.scoreDisplayMode = .notApplicable
        result.numericValue = nil
        result.displayValue = "not applicable"
        result.evidence = []
        result.explanation = reason
        return result
    }
}

/// How a score is shown, after Lighthouse's `scoreDisplayMode`.
public enum ScoreDisplayMode: String, Codable, Sendable {
    /// A score on the log-normal curve.
    case numeric
    /// Pass (1) or fail (0).
    case binary
    /// The run had nothing for the audit to judge (no idle phase, say).
    case notApplicable
    /// The number could not be measured here; `explanation` says why.
    case unavailable
}

/// One piece of evidence behind an audit's number.
public struct Evidence: Codable, Sendable, Equatable {
    /// Seconds since exec, when the evidence has a time.
    public var time: Double?
    /// How long it lasted, ms, when it has a duration.
    public var durationMs: Double?
    public var description: String

    public init(time: Double? = nil, durationMs: Double? = nil, description: String) {
        self.time = time
        self.durationMs = durationMs
        self.description = description
    }
}
