import ArgumentParser
import Foundation
import FrugalCore
import FrugalReport

/// `frugal merge`: joins shard reports into one report set.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the reports of a suite's shards (run --shard I/N) into one report set.",
        discussion: """
        Writes report.json, report.html, summary.md and junit.xml into --out, aggregated over
        all the shards' runs as if the suite had been run at once. Shards run on different
        machines keep each machine's environment, and each run names the machine it ran on;
        comparing such a report with a baseline warns. A missing shard is a warning; the same
        shard twice, or shards of different splits, is bad input (exit 1). Reports that are no
        shards pool their runs when they ran the same workloads and scenarios; reports of
        different suites are bad input unless --allow-different-suites (then a warning).

        --config (default: ./frugal.yml if present) judges the joined results by the project's
        assertions, as frugal run does (exit 2 when an error-level one fails): an assertion on a
        median must see every shard's runs, so the shards' own verdicts are not carried over.

          frugal merge shard-*/report.json --out Reports/merged --baseline Reports/baseline.json
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
        var (report, warnings) = try { () throws -> (Report, [String]) in
            do { return try ReportMerger.merge(reports, names: inputs, allowDifferentSuites: allowDifferentSuites) } catch let failure as ReportMerger.Failure {
                throw CLIFailure.badInput(failure.description)
            }
        }()
        for warning in warnings { ProcessIO.error("warning: \(warning)") }
        if let assertions {
            report.assertions = AssertionEvaluator.evaluate(assertions, results: report.results)
        } else if reports.contains(where: { $0.assertions != nil }) {
            ProcessIO.error("warning: the shards were judged by assertions, which a shard's runs alone cannot decide; give --config to judge the joined report")
        }
        if let baselineReport, let baseline {
            report.comparison = ReportComparator.compare(base: baselineReport, head: report, baseline: baseline)
            if let warning = report.comparison?.machineWarning { ProcessIO.error("warning: \(warning)") }
        }
        // The shards' traces stay in their own directories: the merged set draws its own again
        // from the runs' lanes, within the budget, so its links point into it.
        let traces = report.runs.contains { $0.trace?.path != nil } ? TraceFiles.render(&report, mode: .withinBudget) : []
        do {
            var files = try TraceFiles.writeSet(report, traces: traces, to: directory)
            let junit = directory.appendingPathComponent("junit.xml")
            try ReportFiles.writeAtomically(Data(JUnitRenderer.render(report).utf8), to: junit)
            files.append(junit)
            ProcessIO.progress("frugal: merged \(reports.count) report\(reports.count == 1 ? "" : "s") (\(report.runs.count) runs) into " + files.map(\.path).joined(separator: ", "))
        } catch {
            throw CLIFailure.harness("cannot write the merged report to \(directory.path): \(ErrorText.reason(error))")
        }
        if let comparison = report.comparison { print(ComparisonTextRenderer.render(comparison), terminator: "") }
        try CIOutput.finish(report, jsonStdout: false, annotations: githubAnnotations)
    }
}
