/// Recent runs of each audit, oldest first: what the HTML report draws as trends and
/// `frugal history` prints. Filled from the history database; the type itself is pure.
public struct ReportHistory: Codable, Sendable, Equatable {
    public var series: [HistorySeries]
    public init(series: [HistorySeries]) { self.series = series }

    /// The series of `audit` for a workload and scenario, if any.
    public func series(workload: String, scenario: String, audit: String) -> HistorySeries? {
        series.first { $0.workload == workload && $0.scenario == scenario && $0.audit == audit }
    }
}

/// One audit of one workload under one scenario over recent `frugal run`s.
public struct HistorySeries: Codable, Sendable, Equatable {
    public var workload: String
    public var scenario: String
    public var audit: String
    /// Oldest first.
    public var points: [HistoryPoint]
    public init(workload: String, scenario: String, audit: String, points: [HistoryPoint]) {
        self.workload = workload
        self.scenario = scenario
        self.audit = audit
        self.points = points
    }
}

/// An audit's median score and value in one recorded `frugal run`.
public struct HistoryPoint: Codable, Sendable, Equatable {
    public var recordedAt: String
    /// The git commit the run was made from, when known.
    public var commit: String?
    public var score: Double?
    public var value: Double?
    public init(recordedAt: String, commit: String?, score: Double?, value: Double?) {
        self.recordedAt = recordedAt
        self.commit = commit
        self.score = score
        self.value = value
    }
}
