import ArgumentParser
import Foundation
import FrugalCore
import FrugalReport

/// `frugal report`: renders a report.json again.
struct RenderReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a report.json again as HTML or Markdown.")

    @Argument(help: ArgumentHelp("The report to render.", valueName: "report.json"))
    var input: String

    @Option(help: ArgumentHelp("Write the HTML report here.", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Write the Markdown summary here.", valueName: "file"))
    var markdown: String?

    func validate() throws {
        guard html != nil || markdown != nil else { throw ValidationError("name at least one output: --html FILE or --markdown FILE") }
    }

    func run() throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: input))
        } catch {
            throw CLIFailure.badInput("cannot read \(input): \(error.localizedDescription)")
        }
        let report: Report
        do {
            report = try ReportJSON.decode(data)
        } catch let error as DecodingError {
            throw CLIFailure.badInput("\(input) is not a Frugal report: \(DecodingErrorText.describe(error))")
        } catch {
            throw CLIFailure.badInput("\(input): \(error)")
        }
        if let html { try write(Data(HTMLReportRenderer.render(report).utf8), to: html) }
        if let markdown { try write(Data(MarkdownSummaryRenderer.render(report).utf8), to: markdown) }
    }

    private func write(_ data: Data, to path: String) throws {
        do {
            try ReportFiles.writeAtomically(data, to: URL(fileURLWithPath: path))
        } catch {
            throw CLIFailure.badInput("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
