import ArgumentParser
import Foundation
import FrugalCore
import FrugalReport

/// `--bmf` and `--github-benchmark`: a report's values for trend dashboards (BenchmarkExports).
struct ExportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the head report's values as Bencher Metric Format JSON here.", valueName: "file"))
    var bmf: String?

    @Option(help: ArgumentHelp("Write the head report's metrics and audit values as github-action-benchmark JSON (tool: customSmallerIsBetter) here.", valueName: "file"))
    var githubBenchmark: String?

    @Option(help: ArgumentHelp("Write the head report's scores as github-action-benchmark JSON (tool: customBiggerIsBetter) here.", valueName: "file"))
    var githubBenchmarkScores: String?

    func check() throws {
        try ReportInput.checkOutputs([("--bmf", bmf), ("--github-benchmark", githubBenchmark), ("--github-benchmark-scores", githubBenchmarkScores)])
    }

    func write(_ report: Report) throws {
        do {
            if let bmf { try ReportInput.write(try BenchmarkExports.bencherMetricFormat(report), to: bmf) }
            if let githubBenchmark { try ReportInput.write(try BenchmarkExports.githubActionBenchmark(report), to: githubBenchmark) }
            if let githubBenchmarkScores {
                try ReportInput.write(try BenchmarkExports.githubActionBenchmark(report, smallerIsBetter: false), to: githubBenchmarkScores)
            }
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure.harness("cannot encode the exports: \(error)")
        }
    }
}

extension CIOutput {
    /// The comparison's three answers as exit statuses: 2 regressed (with the first three named),
    /// 4 inconclusive (no regression, but a gating value too noisy to tell at its threshold),
    /// else nothing thrown (0).
    static func verdictExit(_ comparison: ReportComparison) throws {
        if !comparison.regressions.isEmpty {
            throw CLIFailure(code: .findings, message: "regressed: " + comparison.regressions.prefix(3).map(\.oneLine).joined(separator: "; "))
        }
        if let inconclusive = comparison.inconclusive, !inconclusive.isEmpty {
            throw CLIFailure(code: .inconclusive, message: "inconclusive: \(inconclusive.count) gating value\(inconclusive.count == 1 ? "" : "s") too noisy to tell at the threshold, first: " + inconclusive[0].oneLine)
        }
    }
}
