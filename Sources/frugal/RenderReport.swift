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
        --baseline-out writes the compact baseline: each workload's per-repetition values of every \
        audit and metric, without timelines or evidence (a tenth of a megabyte where the full \
        report is several). 'frugal compare' and 'frugal run --baseline' read it as a report.

        JUnit: one test case per audit. With assertions in the report (run with --config), a test \
        case fails when an error-level assertion on it fails; without, when its median score is \
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

    @Option(help: ArgumentHelp("Write each run's Perfetto trace into this directory (NNN-workload-scenario-R.pftrace), drawn from the report's lanes; open it in https://ui.perfetto.dev.", valueName: "dir"))
    var trace: String?

    @Option(help: ArgumentHelp("With --trace, only the runs of this workload, workload/scenario or workload/scenario/repetition.", valueName: "run"))
    var traceRun: String?

    @Option(name: .customLong("rules"), help: ArgumentHelp("Judge every run by a rule pack as well (\(Run.rulePacks.joined(separator: ", "))): printed on standard output, and in the HTML when --html is given.", valueName: "pack"))
    var rulePacks: [String] = []

    @Option(help: ArgumentHelp("Draw each audit's trend in the HTML from this history database.", valueName: "path"))
    var history: String?

    func validate() throws {
        guard html != nil || markdown != nil || junit != nil || baselineOut != nil || githubAnnotations || trace != nil || !rulePacks.isEmpty else {
            throw ValidationError("name at least one output: --html FILE, --markdown FILE, --junit FILE, --baseline-out FILE, --trace DIR, --rules PACK or --github-annotations")
        }
        if traceRun != nil && trace == nil { throw ValidationError("--trace-run needs --trace DIR") }
        for pack in rulePacks where !Run.rulePacks.contains(pack) {
            throw ValidationError("unknown --rules pack '\(pack)'; known: \(Run.rulePacks.joined(separator: ", "))")
        }
    }

    func run() throws {
        // Every output is checked before the report is read and rendered.
        try ReportInput.checkOutputs([("--html", html), ("--markdown", markdown), ("--junit", junit), ("--baseline-out", baselineOut)])
        var report = try ReportInput.load(input)
        if rulePacks.contains(AppleLimits.packName) {
            for index in report.runs.indices { report.runs[index].appleLimits = AppleLimits.evaluate(report.runs[index]) }
            printLimits(report)
        }
        if let trace { try writeTraces(report, to: trace) }
        if let html { try ReportInput.write(HTMLReportRenderer.render(report, history: try trends()), to: html) }
        if let markdown { try ReportInput.write(MarkdownSummaryRenderer.render(report), to: markdown) }
        if let junit { try ReportInput.write(JUnitRenderer.render(report), to: junit) }
        if let baselineOut { try ReportInput.write(try ReportJSON.encodeBaseline(report), to: baselineOut) }
        if githubAnnotations {
            for line in GitHubAnnotations.render(report) { print(line) }
        }
    }

    /// Each chosen run's trace, written into `directory` (created if missing).
    private func writeTraces(_ report: Report, to directory: String) throws {
        let chosen = report.runs.enumerated().filter { _, run in
            guard let traceRun else { return true }
            let parts = traceRun.split(separator: "/", maxSplits: 2).map(String.init)
            return parts[0] == run.workload && (parts.count < 2 || parts[1] == run.scenario) && (parts.count < 3 || parts[2] == String(run.repetition))
        }
        guard !chosen.isEmpty else { throw CLIFailure.badInput("--trace-run \(traceRun ?? ""): no run of \(input) matches (workload, workload/scenario or workload/scenario/repetition)") }
        var info = stat()
        if stat(directory, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw CLIFailure.badInput("--trace \(directory): it is \(FileKind.nonRegular(mode: info.st_mode) ?? "a regular file"), not a directory")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CLIFailure.badInput("--trace \(directory): \(ErrorText.reason(error))")
        }
        for (index, run) in chosen {
            let name = String(TraceFiles.path(index: index, run: run).dropFirst(TraceFiles.directory.count + 1))
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            try ReportInput.write(Data(PerfettoTraceRenderer.render(run)), to: path)
            ProcessIO.progress("frugal: wrote \(path)")
        }
        ProcessIO.progress("frugal: \(TraceFiles.howToOpen)")
    }

    /// Apple's limits per run, on standard output.
    private func printLimits(_ report: Report) {
        for run in report.runs {
            print("\(TextSanitizer.visible(run.workload)) · \(TextSanitizer.visible(run.scenario)) · run \(run.repetition)")
            for result in run.appleLimits ?? [] { print("  \(result.id): \(result.summary)") }
        }
        print("Sources: " + AppleLimits.all.map { "\($0.id): \($0.source)" }.joined(separator: "; "))
    }

    private func trends() throws -> ReportHistory? {
        guard let history else { return nil }
        guard FileManager.default.fileExists(atPath: history) else { throw CLIFailure.badInput("no history database at \(history)") }
        do {
            return try HistoryStore(readingFrom: history).history(limit: 20)
        } catch {
            throw CLIFailure.badInput("cannot read the history at \(history): \(HistoryStore.describe(error))")
        }
    }
}
