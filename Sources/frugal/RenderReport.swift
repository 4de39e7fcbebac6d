import ArgumentParser
import Foundation
import FrugalCore
import FrugalHistory
import FrugalReport

/// `frugal report`: renders a report.json again, for people and for CI.
struct RenderReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a report.json again as HTML, Markdown or JUnit XML, or as a compact baseline.",
        discussion: """
        --baseline-out writes the compact baseline: each workload's per-repetition values of every
        audit and metric, without timelines or evidence (a tenth of a megabyte where the full
        report is several). 'frugal compare' and 'frugal run --baseline' read it as a report.

        JUnit: one test case per audit. With assertions in the report (run with --config), a test
        case fails when an error-level assertion on it fails; without, when its median score is
        below 0.5. A regression against the baseline also fails it.
        """)

    @Argument(help: ArgumentHelp("The report to render.", valueName: "report.json"))
    var input: String

    @Option(help: ArgumentHelp("Write the HTML report here.", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Write the Markdown summary here.", valueName: "file"))
    var markdown: String?

    @Option(help: ArgumentHelp("Write JUnit XML here (a test case per audit).", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the compact baseline (per-repetition values, no timelines) here.", valueName: "file"))
    var baselineOut: String?

    @Flag(help: "Print GitHub Actions annotations (::error ...) on standard output.")
    var githubAnnotations = false

    @Option(help: ArgumentHelp("Draw each audit's trend in the HTML from this history database.", valueName: "path"))
    var history: String?

    func validate() throws {
        guard html != nil || markdown != nil || junit != nil || baselineOut != nil || githubAnnotations else {
            throw ValidationError("name at least one output: --html FILE, --markdown FILE, --junit FILE, --baseline-out FILE or --github-annotations")
        }
    }

    func run() throws {
        // Every output is checked before the report is read and rendered.
        try ReportInput.checkOutputs([("--html", html), ("--markdown", markdown), ("--junit", junit), ("--baseline-out", baselineOut)])
        let report = try ReportInput.load(input)
        if let html { try ReportInput.write(HTMLReportRenderer.render(report, history: try trends()), to: html) }
        if let markdown { try ReportInput.write(MarkdownSummaryRenderer.render(report), to: markdown) }
        if let junit { try ReportInput.write(JUnitRenderer.render(report), to: junit) }
        if let baselineOut { try ReportInput.write(try ReportJSON.encodeBaseline(report), to: baselineOut) }
        if githubAnnotations {
            for line in GitHubAnnotations.render(report) { print(line) }
        }
    }

    private func trends() throws -> ReportHistory? {
        guard let history else { return nil }
        guard FileManager.default.fileExists(atPath: history) else { throw CLIFailure.badInput("no history database at \(history)") }
        do {
            return try HistoryStore(readingFrom: history).history(limit: 20)
        } catch {
            throw CLIFailure.badInput("cannot read the history at \(history): \(error)")
        }
    }
}
