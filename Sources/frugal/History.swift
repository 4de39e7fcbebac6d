import ArgumentParser
import Foundation
import FrugalHistory
import FrugalPipeline

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
        print(HistoryQuery.render(try HistoryQuery.read(path: db, limit: limit, workload: workload)), terminator: "")
    }
}
