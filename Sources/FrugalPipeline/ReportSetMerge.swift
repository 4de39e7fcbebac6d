import Foundation
import FrugalCore
import FrugalReport

/// Shards' reports joined into one report set, one way for every caller (`frugal merge`).
public enum ReportSetMerge {
    /// The joined report set as written, and what its reader should be warned of.
    public struct Merged: Sendable {
        /// The joined report, judged by the assertions and compared with the baseline if given.
        public var report: Report
        /// Lines to warn of: a missing shard, shards judged by assertions that could not be
        /// judged again, a baseline from another machine.
        public var warnings: [String]
        /// The files written (report.json, report.html, summary.md; junit.xml last).
        public var files: [URL]
    }

    /// Joins `reports` (named by `names` in messages) as if the suite had been run at once,
    /// judges the joined results by `assertions` (an assertion on a median must see every
    /// shard's runs), compares with `baseline` and writes the set into `out`.
    public static func merge(_ reports: [Report], names: [String], assertions: AssertionSet?,
                             baseline: (report: Report, name: String)?, out: URL) throws -> Merged {
        var report: Report
        var warnings: [String]
        do {
            (report, warnings) = try ReportMerger.merge(reports, names: names)
        } catch let failure as ReportMerger.Failure {
            throw PipelineFailure.badInput(failure.description)
        }
        if let assertions {
            report.assertions = AssertionEvaluator.evaluate(assertions, results: report.results)
        } else if reports.contains(where: { $0.assertions != nil }) {
            warnings.append("the shards were judged by assertions, which a shard's runs alone cannot decide; give --config to judge the joined report")
        }
        if let baseline {
            report.comparison = ReportComparator.compare(base: baseline.report, head: report, baseline: baseline.name)
            if let warning = report.comparison?.machineWarning { warnings.append(warning) }
        }
        // The shards' traces stay in their own directories: the merged set draws its own again
        // from the runs' lanes, within the budget, so its links point into it.
        let traces = report.runs.contains { $0.trace?.path != nil } ? TraceFiles.render(&report, mode: .withinBudget) : []
        do {
            var files = try TraceFiles.writeSet(report, traces: traces, to: out)
            let junit = out.appendingPathComponent("junit.xml")
            try ReportFiles.writeAtomically(Data(JUnitRenderer.render(report).utf8), to: junit)
            files.append(junit)
            return Merged(report: report, warnings: warnings, files: files)
        } catch {
            throw PipelineFailure.harness("cannot write the merged report to \(out.path): \(error)")
        }
    }
}
