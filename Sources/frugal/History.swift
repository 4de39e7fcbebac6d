import ArgumentParser
import Foundation
import FrugalCore
import FrugalHistory

/// `frugal history`: each audit's score over the recorded runs.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print each audit's score over recent runs (from the history database).")

    @Option(help: ArgumentHelp("The history database.", valueName: "path"))
    var db = HistoryStore.defaultPath

    @Option(help: ArgumentHelp("Only this workload.", valueName: "name"))
    var workload: String?

    @Option(help: ArgumentHelp("How many recent runs.", valueName: "n"))
    var limit = 10

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more") }
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: db) else {
            throw CLIFailure.badInput("no history at \(db): 'frugal run' records each run there (or name one with --db)")
        }
        let history: ReportHistory
        do {
            let store = try HistoryStore(readingFrom: db)
            history = try store.history(limit: limit, workload: workload)
        } catch {
            throw CLIFailure.badInput("cannot read the history at \(db): \(HistoryStore.describe(error))")
        }
        print(HistoryText.render(history), terminator: "")
    }
}

/// The table `frugal history` prints: one line per audit, its scores oldest first.
enum HistoryText {
    static func render(_ history: ReportHistory) -> String {
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
