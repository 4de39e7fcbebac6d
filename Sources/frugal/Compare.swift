import ArgumentParser
import Foundation
import FrugalCore
import FrugalReport

/// `frugal compare`: a report against a baseline, over their repetitions.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a report against a baseline: exit 2 regressed, 4 inconclusive, 0 unchanged.",
        discussion: """
        For each workload and scenario in both reports, every audit's value and every metric is \
        compared over the repetitions: Mann–Whitney U (α = 0.05), a bootstrap interval of the \
        median change, the Hodges–Lehmann shift with its 95 % interval, and a minimum effect per \
        value (docs/COMPARISON.md). A gating value whose interval contains its threshold is \
        inconclusive (exit 4 when nothing regressed): never a failure, never "unchanged". \
        Each side needs at least 5 repetitions; with fewer, values are reported as \
        "insufficient repetitions", never as unchanged. Regressions are listed worst first. \
        Reports that share no workload · scenario, or in which no value has enough repetitions \
        on both sides, compare nothing: one line on standard error and exit 1.
        """)

    @Argument(help: ArgumentHelp("The baseline report.", valueName: "base.json"))
    var base: String

    @Argument(help: ArgumentHelp("The report to judge.", valueName: "head.json"))
    var head: String

    @Option(help: ArgumentHelp("Also write the Markdown summary (with the comparison) here.", valueName: "file"))
    var markdown: String?

    @Option(help: ArgumentHelp("Write the head report with its comparison section here.", valueName: "file"))
    var out: String?

    @Flag(help: "Print the head report with its comparison as JSON on standard output instead of the listing.")
    var jsonStdout = false

    @Flag(help: "Print GitHub Actions annotations (::error ...) for regressions.")
    var githubAnnotations = false

    @Option(help: ArgumentHelp("A calibration from frugal calibrate on this host: every threshold is at least 3 × its measured noise (another host's is refused).", valueName: "file"))
    var calibration: String?

    @OptionGroup var exports: ExportOptions

    func run() throws {
        try ReportInput.checkOutputs([("--markdown", markdown), ("--out", out)])
        try exports.check()
        let noise = try calibration.map(Calibrate.loadForGating)
        // Both read at once: decoding is nearly all of a comparison's time. Without the
        // timelines, which no comparison reads: the baseline's never, the head's unless the head
        // report is written out (--out, --json-stdout) or rendered.
        let (base, head) = (self.base, self.head)
        let headTimelines = out != nil || jsonStdout || markdown != nil
        let (baseReport, headRead) = try ReportJSON.pair({ try ReportInput.load(base, timelines: false) },
                                                         { try ReportInput.load(head, timelines: headTimelines) })
        var headReport = headRead
        headReport.comparison = ReportComparator.compare(base: baseReport, head: headReport, baseline: base, calibration: noise)
        try exports.write(headReport)
        if let markdown { try ReportInput.write(MarkdownSummaryRenderer.render(headReport), to: markdown) }
        if let out { try ReportInput.writeReport(headReport, to: out) }
        // Reports that share no workload, or whose values all lack repetitions, compare nothing:
        // that is bad input (exit 1, one line), not "no regression".
        if let comparison = headReport.comparison, let nothing = ComparisonTextRenderer.nothingCompared(comparison) {
            throw CLIFailure.badInput("\(head) against \(base): \(nothing)")
        }
        if let warning = headReport.comparison?.machineWarning {
            // Thresholds held to this host's measured noise mean nothing for another host's baseline.
            if noise != nil { throw CLIFailure.badInput("\(base): refused for gating with --calibration: \(warning)") }
            ProcessIO.error("warning: \(warning)")
        }
        if !jsonStdout, let comparison = headReport.comparison { print(ComparisonTextRenderer.render(comparison), terminator: "") }
        try CIOutput.finish(headReport, jsonStdout: jsonStdout, annotations: githubAnnotations)
        if let comparison = headReport.comparison { try CIOutput.verdictExit(comparison) }
    }
}
