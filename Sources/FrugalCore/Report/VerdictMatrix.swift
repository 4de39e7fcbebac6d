/// A bad workload, its good twin, and the audit the bad one is built to fail.
public struct WorkloadPair: Codable, Sendable, Equatable {
    public var bad: String
    public var good: String
    public var audit: String

    public init(bad: String, good: String, audit: String) {
        self.bad = bad
        self.good = good
        self.audit = audit
    }
}

/// The confusion matrix of a report's verdicts over the built-in good/bad workloads: whether a
/// reader can trust them. Three kinds of error are counted, each over the aggregated results
/// (medians over repetitions):
///  - a false alarm: a good workload below `passing` on any audit that scored it;
///  - a miss: a bad workload not below `failing` on its own audit (or not scored on it);
///  - an unseparated pair: the good twin below `passing` overall, or the bad one not at least
///    `separation` below it overall.
/// Pure: `frugal verdicts` prints it, tests hold its counts at 0 on real runs.
public struct VerdictMatrix: Codable, Sendable {
    /// Lighthouse's pass line, the fail line, and the overall gap between twins.
    public static let passing = 0.9
    public static let failing = 0.5
    public static let separation = 0.1

    /// One workload × audit cell.
    public struct Cell: Codable, Sendable, Equatable {
        public var workload: String
        public var role: Role
        public var audit: String
        /// nil when the audit did not apply or could not be measured (`explanation` says why).
        public var score: Double?
        public var display: String
        public var explanation: String?
        /// Whether this cell is an error: a false alarm or a miss.
        public var error: String?
    }

    public enum Role: String, Codable, Sendable { case good, bad }

    /// One pair's overall scores.
    public struct PairRow: Codable, Sendable, Equatable {
        public var pair: WorkloadPair
        public var goodScore: Double?
        public var badScore: Double?
        /// Why the pair is not separated, when it is not.
        public var error: String?
    }

    public var cells: [Cell]
    public var pairs: [PairRow]
    /// Each listed workload's overall score (absent: none).
    public var overall: [String: Double]
    /// Workloads the pairs name that the report does not have.
    public var missing: [String]

    /// Good workloads' readings below `passing`.
    public var falseAlarms: Int { cells.filter { $0.role == .good && $0.error != nil }.count }
    /// Bad workloads not below `failing` on their own audit.
    public var misses: Int { cells.filter { $0.role == .bad && $0.error != nil }.count }
    /// Pairs not separated overall.
    public var unseparatedPairs: Int { pairs.filter { $0.error != nil }.count }
    /// All three counts are 0 and every workload was in the report.
    public var isClean: Bool { falseAlarms == 0 && misses == 0 && unseparatedPairs == 0 && missing.isEmpty }

    /// The matrix of `results` for `pairs`; `alsoGood` are good workloads without a twin (`idle`).
    public init(results: [WorkloadResult], pairs: [WorkloadPair], alsoGood: [String] = []) {
        var byWorkload: [String: WorkloadResult] = [:]
        for result in results where byWorkload[result.workload] == nil { byWorkload[result.workload] = result }
        var cells: [Cell] = []
        var missing: [String] = []
        var goods: [String] = []
        for name in pairs.map(\.good) + alsoGood where !goods.contains(name) { goods.append(name) }
        for name in goods {
            guard let result = byWorkload[name] else { missing.append(name); continue }
            for (id, audit) in result.audits.sorted(by: { $0.key < $1.key }) {
                let error = audit.score.flatMap { $0 < Self.passing ? "good workload below \(Self.passing)" : nil }
                cells.append(Cell(workload: name, role: .good, audit: id, score: audit.score, display: audit.displayValue,
                                  explanation: audit.explanation, error: error))
            }
        }
        var rows: [PairRow] = []
        for pair in pairs {
            guard let bad = byWorkload[pair.bad] else { missing.append(pair.bad); continue }
            let audit = bad.audits[pair.audit]
            let error: String?
            if let score = audit?.score {
                error = score < Self.failing ? nil : "bad workload not below \(Self.failing) on its own audit"
            } else {
                error = "bad workload not scored on its own audit" + (audit?.explanation.map { ": \($0)" } ?? "")
            }
            cells.append(Cell(workload: pair.bad, role: .bad, audit: pair.audit, score: audit?.score,
                              display: audit?.displayValue ?? "not in the report", explanation: audit?.explanation, error: error))
            let good = byWorkload[pair.good]
            var row = PairRow(pair: pair, goodScore: good?.score, badScore: bad.score)
            if let goodScore = good?.score, let badScore = bad.score {
                if goodScore < Self.passing {
                    row.error = "good twin below \(Self.passing) overall"
                } else if goodScore - badScore < Self.separation - 1e-9 {
                    row.error = "bad workload less than \(Self.separation) below its twin overall"
                }
            } else {
                row.error = "an overall score is missing"
            }
            rows.append(row)
        }
        self.cells = cells
        self.pairs = rows
        var overall: [String: Double] = [:]
        for cell in cells where overall[cell.workload] == nil { overall[cell.workload] = byWorkload[cell.workload]?.score }
        self.overall = overall
        self.missing = missing
    }
}
