import Foundation
import FrugalCore
import FrugalHistory

/// `frugal history` as a library: each audit's scores over the runs a history database holds,
/// and the table the CLI prints of them.
public enum HistoryQuery {
    /// The last `limit` runs of the database at `path` (of `workload` only, when given).
    public static func read(path: String, limit: Int, workload: String?) throws -> ReportHistory {
        guard FileManager.default.fileExists(atPath: path) else {
            throw PipelineFailure.badInput("no history at \(path): 'frugal run' records each run there (or name one with --db)")
        }
        do {
            let store = try HistoryStore(readingFrom: path)
            return try store.history(limit: limit, workload: workload)
        } catch {
            throw PipelineFailure.badInput("cannot read the history at \(path): \(HistoryStore.describe(error))")
        }
    }

    /// The table `frugal history` prints: a heading per workload and scenario, then one line per
    /// audit, its scores oldest first and the latest run's time and commit.
    public static func render(_ history: ReportHistory) -> String {
        guard !history.series.isEmpty else { return "no runs recorded\n" }
        var lines: [String] = []
        var current = ""
        for series in history.series {
            let heading = "\(series.workload) · \(series.scenario)"
            if heading != current {
                lines.append(heading)
                current = heading
            }
            let scores = series.points.map { $0.score.map { String(repeating: " ", count: max(0, 3 - DisplayFormat.score($0).count)) + DisplayFormat.score($0) } ?? "  –" }.joined(separator: " ")
            let last = series.points.last
            let latest = last.map { " (latest \($0.recordedAt)\($0.commit.map { " @" + String($0.prefix(7)) } ?? ""))" } ?? ""
            lines.append("  \(series.audit.padding(toLength: 34, withPad: " ", startingAt: 0)) \(scores)\(latest)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
