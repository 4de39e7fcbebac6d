/// A bad workload, its good twin, and the audit the bad one is built to fail.
public struct WorkloadPair: Codable, Sendable, Hashable {
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
/// (medians over repetitions) of every scenario a workload ran:
///  - a false alarm: a good workload below `passing` on any audit that scored it, in any scenario;
///  - a miss: a bad workload not below `failing` on its own audit in a scenario that scored it
///    (or not scored on it in any);
///  - an unseparated pair: in a scenario both ran (or the bad one's, against the good twin's
///    worst), the good twin below `passing` overall, or the bad one not at least `separation`
///    below it overall.
/// A workload that ran several scenarios is judged in each: the good app that passes its first
/// scenario and fails its second is a false alarm.
/// Pure: `frugal verdicts` prints it, tests hold its counts at 0 on real runs.
public struct VerdictMatrix: Codable, Sendable {
    /// Lighthouse's pass line, the fail line, and the overall gap between twins.
    public static let passing = 0.9
    public static let failing = 0.5
    public static let separation = 0.1

    /// One workload × scenario × audit cell.
    public struct Cell: Codable, Sendable, Equatable {
        public var workload: String
        /// The scenario the result is of (nil in matrices written before scenarios were told apart).
        public var scenario: String?
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

    /// One pair's overall scores in one scenario.
    public struct PairRow: Codable, Sendable, Equatable {
        public var pair: WorkloadPair
        /// The bad workload's scenario this row judges (nil when the bad workload is missing).
        public var scenario: String?
        public var goodScore: Double?
        public var badScore: Double?
        /// Why the pair is not separated, when it is not.
        public var error: String?
    }

    public var cells: [Cell]
    public var pairs: [PairRow]
    /// Each listed workload's overall score: the lowest over its scenarios (absent: none).
    public var overall: [String: Double]
    /// Each listed workload's overall score in each scenario it ran, in the report's order.
    public var scenarioScores: [ScenarioScore]

    /// A workload's overall score in one scenario.
    public struct ScenarioScore: Codable, Sendable, Equatable {
        public var workload: String
        public var scenario: String
        public var score: Double?
    }
    /// Workloads the pairs name that the report does not have.
    public var missing: [String]

    /// Good workloads' readings below `passing`.
    public var falseAlarms: Int { cells.filter { $0.role == .good && $0.error != nil }.count }
    /// Bad workloads not below `failing` on their own audit.
    public var misses: Int { cells.filter { $0.role == .bad && $0.error != nil }.count }
    /// Pairs not separated overall (in any scenario).
    public var unseparatedPairs: Int {
        Set(pairs.filter { $0.error != nil }.map(\.pair)).count
    }
    /// All three counts are 0 and every workload was in the report.
    public var isClean: Bool { falseAlarms == 0 && misses == 0 && unseparatedPairs == 0 && missing.isEmpty }

    /// The matrix of `results` for `pairs`; `alsoGood` are good workloads without a twin (`idle`).
    public init(results: [WorkloadResult], pairs: [WorkloadPair], alsoGood: [String] = []) {
        // Every scenario's result of each workload, in the report's order.
        var byWorkload: [String: [WorkloadResult]] = [:]
        for result in results { byWorkload[result.workload, default: []].append(result) }
        var cells: [Cell] = []
        var missing: [String] = []
        var goods: [String] = []
        for name in pairs.map(\.good) + alsoGood where !goods.contains(name) { goods.append(name) }
        for name in goods {
            guard let scenarios = byWorkload[name] else { missing.append(name); continue }
            for result in scenarios {
                for (id, audit) in result.audits.sorted(by: { $0.key < $1.key }) {
                    let error = audit.score.flatMap { $0 < Self.passing ? "good workload below \(Self.passing)" : nil }
                    cells.append(Cell(workload: name, scenario: result.scenario, role: .good, audit: id, score: audit.score,
                                      display: audit.displayValue, explanation: audit.explanation, error: error))
                }
            }
        }
        var rows: [PairRow] = []
        for pair in pairs {
            guard let bads = byWorkload[pair.bad] else { missing.append(pair.bad); continue }
            let goodResults = byWorkload[pair.good] ?? []
            // Judged where the audit scored it; when no scenario did, each scenario is a miss.
            let scored = bads.filter { $0.audits[pair.audit]?.score != nil }
            for bad in scored.isEmpty ? bads : scored {
                let audit = bad.audits[pair.audit]
                let error: String?
                if let score = audit?.score {
                    error = score < Self.failing ? nil : "bad workload not below \(Self.failing) on its own audit"
                } else {
                    error = "bad workload not scored on its own audit" + (audit?.explanation.map { ": \($0)" } ?? "")
                }
                cells.append(Cell(workload: pair.bad, scenario: bad.scenario, role: .bad, audit: pair.audit, score: audit?.score,
                                  display: audit?.displayValue ?? "not in the report", explanation: audit?.explanation, error: error))
                // The twin in the same scenario, else its worst: a good app is good in every scenario.
                let goodScore = goodResults.first { $0.scenario == bad.scenario }?.score ?? goodResults.compactMap(\.score).min()
                var row = PairRow(pair: pair, scenario: bad.scenario, goodScore: goodScore, badScore: bad.score)
                if let goodScore, let badScore = bad.score {
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
        }
        self.cells = cells
        self.pairs = rows
        var overall: [String: Double] = [:]
        for cell in cells where overall[cell.workload] == nil {
            if let lowest = byWorkload[cell.workload]?.compactMap(\.score).min() { overall[cell.workload] = lowest }
        }
        self.overall = overall
        var listed = Set<String>()
        var scenarioScores: [ScenarioScore] = []
        for cell in cells where listed.insert(cell.workload).inserted {
            for result in byWorkload[cell.workload] ?? [] {
                scenarioScores.append(ScenarioScore(workload: cell.workload, scenario: result.scenario, score: result.score))
            }
        }
        self.scenarioScores = scenarioScores
        self.missing = missing
    }
}
