import ArgumentParser
import Foundation
import FrugalCore
import FrugalPipeline
import FrugalReport

/// `frugal verdicts`: the confusion matrix of a report of the built-in suite.
struct Verdicts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verdicts",
        abstract: "Check a report of the built-in suite, or of a frugal.yml's apps: false alarms on good workloads, misses on bad ones, pairs not separated.",
        discussion: """
        Reads a report of the built-in workloads (`frugal run`'s report.json, or `-` for standard \
        input, e.g. `frugal run --repeat 5 --json-stdout | frugal verdicts -`) and prints every \
        good and bad workload's scored audits (medians over the repetitions), then three counts:
          false alarms   a good workload below 0.9 on any audit that applies to it;
          misses         a bad workload not below 0.5 on the audit it should fail;
          not separated  a pair whose good twin is below 0.9 overall, or whose bad
                         one is not at least 0.1 below it overall.
        Exits 0 when all three are 0 and every paired workload is in the report, 2 otherwise. \
        The pairs are listed by `frugal list`; docs/SCORING.md explains the overall score. \
        With --config, the pairs are the file's instead: each app's `verdict:` (good, or \
        {fails: AUDIT, twin: GOOD-APP}) says what it is expected to do (docs/YOUR-APP.md).
        """)

    @Argument(help: ArgumentHelp("The report (report.json), or - for standard input.", valueName: "report.json"))
    var report: String

    @Option(help: ArgumentHelp("A frugal.yml whose apps' `verdict:` keys give the good apps and the pairs, instead of the built-in suite's.", valueName: "file"))
    var config: String?

    @Flag(help: "Also list the audits that did not apply or could not be measured, with the reason.")
    var notApplicable = false

    @Flag(help: "Print the matrix as JSON instead of text.")
    var json = false

    func run() throws {
        let loaded: Report
        if report == "-" {
            // Bounded like a report file: a stream that never ends is refused past the limit.
            loaded = try VerdictCheck.report(streamed: try FileHandle.standardInput.read(upToCount: ReportJSON.maxBytes + 1), from: "standard input")
        } else {
            loaded = try ReportInput.load(report)
        }
        let matrix = try VerdictCheck.matrix(of: loaded, configPath: config)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(matrix), as: UTF8.self))
        } else {
            print(VerdictMatrixRenderer.render(matrix, showNotApplicable: notApplicable), terminator: "")
        }
        if !matrix.isClean { throw ExitCode(2) }
    }
}
