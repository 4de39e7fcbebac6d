import ArgumentParser
import Foundation
import FrugalCore
import FrugalPipeline
import FrugalReport

/// `frugal reaudit`: the report set made again from a suite's recorded evidence, by this
/// Frugal's rules, without running anything.
struct Reaudit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reaudit",
        abstract: "Make a report set again from a suite's evidence.json by this Frugal's rules, without running anything.",
        discussion: """
        frugal run keeps the raw evidence of every run (event streams, /proc samples, the proxy's \
        requests, exit records, wakeup traces) in evidence.json beside report.json. reaudit \
        recomputes metrics, audits, scores, assertions and rule packs from it with the rules of \
        the Frugal you run it with: re-score old runs after an upgrade, or check a rule change \
        against a library of recorded runs in seconds. It prints each score that moved against \
        the report.json beside the evidence (or --against), then writes the new set (report.json, \
        report.html, summary.md, traces and the evidence) into --out (default: the evidence's \
        own directory). A comparison with a baseline is not evidence: give --baseline again.

          frugal reaudit Reports/latest/evidence.json --out /tmp/rescored
        Exit codes as frugal run's: 2 when an error-level assertion fails or a regression is found.
        """)

    @Argument(help: ArgumentHelp("The evidence a run kept.", valueName: "evidence.json"))
    var input: String

    @Option(help: ArgumentHelp("Directory for the new report set (default: the evidence's directory).", valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("The report to list moved scores against (default: report.json beside the evidence, if there is one).", valueName: "report.json"))
    var against: String?

    @Option(help: ArgumentHelp("A baseline report (full or compact) to compare the new report against; exit 2 on a significant regression.", valueName: "file"))
    var baseline: String?

    @Flag(help: "Print only errors, not the moved scores or the files written.")
    var quiet = false

    func run() throws {
        let evidence = try Self.load(input)
        let evidenceDirectory = URL(fileURLWithPath: input).deletingLastPathComponent().path
        let out = try ReportInput.resolveOut(self.out ?? evidenceDirectory)
        let directory = URL(fileURLWithPath: out)
        let outLock = try ReportInput.lockOut(out)
        defer { withExtendedLifetime(outLock) {} }
        let previousPath = against ?? URL(fileURLWithPath: evidenceDirectory).appendingPathComponent(ReportFiles.jsonName).path
        let previous: Report? = against != nil || FileManager.default.fileExists(atPath: previousPath) ? try ReportInput.load(previousPath, timelines: false) : nil
        let baselineReport = try baseline.map { try ReportInput.load($0, timelines: false) }

        if !quiet {
            ProcessIO.progress("frugal reaudit: \(evidence.records.count) run\(evidence.records.count == 1 ? "" : "s") gathered by frugal \(evidence.gatheredBy.version), audited by frugal \(Frugal.version)")
        }
        let written: EvidenceReport.Written
        do {
            written = try EvidenceReport.write(evidence, tool: ToolInfo(version: Frugal.version), baseline: baselineReport.map { ($0, baseline ?? "") },
                                               history: nil, to: directory)
        } catch let failure as PipelineFailure {
            throw CLIFailure(failure)
        }
        let report = written.report
        if let warning = report.comparison?.machineWarning { ProcessIO.error("warning: \(warning)") }
        if !quiet {
            if let previous { printChanges(ReauditChanges.between(previous, report), against: previousPath) }
            ProcessIO.progress("frugal reaudit: wrote " + written.files.prefix(written.files.count - written.traceCount).map(\.path).joined(separator: ", "))
        }
        if let comparison = report.comparison, !quiet { print(ComparisonTextRenderer.render(comparison), terminator: "") }
        try CIOutput.finish(report, jsonStdout: false, annotations: false)
    }

    private func printChanges(_ changes: [ReauditChanges.Change], against path: String) {
        guard !changes.isEmpty else {
            print("no score moved against \(path)")
            return
        }
        print("\(changes.count) score\(changes.count == 1 ? "" : "s") moved against \(path):")
        // 0–1 with two decimals, as frugal verdicts and the rules print scores.
        let score = { (value: Double?) in value.map { String(format: "%.2f", $0) } ?? "n/a" }
        for change in changes {
            print("  \(change.workload) · \(change.scenario)  \(change.audit)  \(score(change.before)) → \(score(change.after))")
        }
    }

    /// The evidence file at `path`, each failure one bad-input line naming it.
    static func load(_ path: String) throws -> RunEvidence {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CLIFailure.badInput("cannot read \(path): \(String(cString: strerror(errno)))") }
        if let kind = FileKind.nonRegular(mode: info.st_mode) { throw CLIFailure.badInput("cannot read \(path): it is \(kind), not an evidence file") }
        guard Int(info.st_size) <= EvidenceFile.maxBytes else {
            throw CLIFailure.badInput("\(path) is \(Int(info.st_size) / 1_048_576) MiB, larger than evidence can be (\(EvidenceFile.maxBytes / 1_048_576) MiB)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw CLIFailure.badInput("cannot read \(path): \(ErrorText.reason(error))")
        }
        do {
            return try EvidenceFile.decode(data)
        } catch let error as DecodingError {
            throw CLIFailure.badInput("\(path) is not Frugal evidence: \(DecodingErrorText.describe(error, data: data))")
        } catch {
            throw CLIFailure.badInput("\(path): \(ErrorText.reason(error))")
        }
    }
}
