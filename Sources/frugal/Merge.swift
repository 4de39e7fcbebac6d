import ArgumentParser
import Foundation
import FrugalCore
import FrugalPipeline
import FrugalReport

/// `frugal merge`: joins shard reports into one report set.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the reports of a suite's shards (run --shard I/N) into one report set.",
        discussion: """
        Writes report.json, report.html, summary.md and junit.xml into --out, aggregated over \
        all the shards' runs as if the suite had been run at once. Shards run on different \
        machines keep each machine's environment, and each run names the machine it ran on; \
        comparing such a report with a baseline warns. A missing shard is a warning; the same \
        shard twice, or shards of different splits, is bad input (exit 1). Reports that are no \
        shards pool their runs when they ran the same workloads and scenarios; reports of \
        different suites are bad input unless --allow-different-suites (then a warning).

        --config (default: ./frugal.yml if present) judges the joined results by the project's \
        assertions, as frugal run does (exit 2 when an error-level one fails): an assertion on a \
        median must see every shard's runs, so the shards' own verdicts are not carried over.

          frugal merge shard-*/report.json --out Reports/merged \\
            --baseline Reports/baseline.json
        """)

    @Argument(help: ArgumentHelp("The shards' report.json files.", valueName: "report.json"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Directory for the joined report set.", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("A baseline report (full or compact) to compare the joined report against; exit 2 on a significant regression.", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("The project file whose assertions judge the joined report (default: ./frugal.yml if present); exit 2 when an error-level one fails.", valueName: "file"))
    var config: String?

    @Flag(help: "Merge reports that are no shards even when they ran different workloads or scenarios (a warning names them); without it they are refused.")
    var allowDifferentSuites = false

    @Flag(help: "Print GitHub Actions annotations (::error ...) for regressions and failed assertions.")
    var githubAnnotations = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("name the shards' report.json files to merge") }
    }

    func run() throws {
        // The output first, and held: two merges into one --out would interleave their sets.
        let out = try ReportInput.resolveOut(self.out)
        let directory = URL(fileURLWithPath: out)
        let outLock = try ReportInput.lockOut(out)
        defer { withExtendedLifetime(outLock) {} }
        let assertions = try Run.loadProject(config)?.assertions
        let reports = try inputs.map(ReportInput.load)
        let baselineReport = try baseline.map(ReportInput.load)
        let merged: ReportSetMerge.Merged
        do {
            merged = try ReportSetMerge.merge(reports, names: inputs, allowDifferentSuites: allowDifferentSuites, assertions: assertions,
                                              baseline: baselineReport.map { ($0, baseline ?? "") }, out: directory)
        } catch let failure as PipelineFailure {
            throw CLIFailure(failure)
        }
        for warning in merged.warnings { ProcessIO.error("warning: \(warning)") }
        let report = merged.report
        ProcessIO.progress("frugal: merged \(reports.count) report\(reports.count == 1 ? "" : "s") (\(report.runs.count) runs) into " + merged.files.map(\.path).joined(separator: ", "))
        if let comparison = report.comparison { print(ComparisonTextRenderer.render(comparison), terminator: "") }
        try CIOutput.finish(report, jsonStdout: false, annotations: githubAnnotations)
    }
}
