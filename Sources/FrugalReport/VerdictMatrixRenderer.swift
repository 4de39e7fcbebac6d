import Foundation
import FrugalCore

/// `frugal verdicts` as text: each workload's scored audits, the pairs' overall scores, and the
/// three error counts last, so a CI log ends with them.
public enum VerdictMatrixRenderer {
    public static func render(_ matrix: VerdictMatrix, showNotApplicable: Bool = false) -> String {
        var lines: [String] = []
        var order: [String] = []
        for cell in matrix.cells where !order.contains(cell.workload) { order.append(cell.workload) }
        for workload in order {
            let scenarios = matrix.scenarioScores.filter { $0.workload == workload }
            // A workload of one scenario is named alone, as before; of several, each scenario apart.
            let groups: [(label: String, score: Double?, scenario: String?)] = scenarios.count > 1
                ? scenarios.map { ("\(workload) · \($0.scenario)", $0.score, $0.scenario) }
                : [(workload, matrix.overall[workload], nil)]
            for group in groups {
                let cells = matrix.cells.filter { $0.workload == workload && (group.scenario == nil || $0.scenario == group.scenario) }
                guard let role = cells.first?.role else { continue }
                lines.append("\(role.rawValue.padding(4)) \(group.label)  overall \(group.score.map(format) ?? "-")")
                for cell in cells where cell.score != nil {
                    let mark = cell.error == nil ? " " : "✗"
                    lines.append("  \(mark) \(cell.audit.padding(36)) \(format(cell.score!))  \(cell.display)")
                }
                let notApplicable = cells.filter { $0.score == nil }
                if showNotApplicable {
                    for cell in notApplicable {
                        let mark = cell.error == nil ? " " : "✗"
                        lines.append("  \(mark) \(cell.audit.padding(36))    -  \(cell.display): \(cell.explanation ?? "")")
                    }
                } else if !notApplicable.isEmpty {
                    lines.append("    (\(notApplicable.count) not applicable or unavailable, each with its reason in the report)")
                }
            }
        }
        lines.append("")
        lines.append("pairs (overall: good ≥ \(format(VerdictMatrix.passing)), bad at least \(format(VerdictMatrix.separation)) below it)")
        for row in matrix.pairs {
            let mark = row.error == nil ? " " : "✗"
            let good = row.goodScore.map(format) ?? "-", badScore = row.badScore.map(format) ?? "-"
            let gap = zip2(row.goodScore, row.badScore).map { format($0 - $1) } ?? "-"
            let several = matrix.scenarioScores.filter { $0.workload == row.pair.bad }.count > 1
            let bad = several ? "\(row.pair.bad) · \(row.scenario ?? "") \(badScore)" : "\(row.pair.bad) \(badScore)"
            lines.append("  \(mark) \(row.pair.audit.padding(36)) good \(row.pair.good) \(good)  bad \(bad)  gap \(gap)"
                         + (row.error.map { "  (\($0))" } ?? ""))
        }
        if !matrix.missing.isEmpty { lines.append("not in the report: " + matrix.missing.joined(separator: ", ")) }
        lines.append("")
        lines.append("false alarms (good workload below \(format(VerdictMatrix.passing)) on an audit): \(matrix.falseAlarms)")
        lines.append("misses (bad workload not below \(format(VerdictMatrix.failing)) on its own audit): \(matrix.misses)")
        lines.append("pairs not separated overall: \(matrix.unseparatedPairs)")
        return lines.joined(separator: "\n") + "\n"
    }

    static func format(_ score: Double) -> String { String(format: "%.2f", score) }

    static func zip2(_ a: Double?, _ b: Double?) -> (Double, Double)? {
        guard let a, let b else { return nil }
        return (a, b)
    }
}

private extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
