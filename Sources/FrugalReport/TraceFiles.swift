import Foundation
import FrugalCore

/// Each run's Perfetto trace in the report set, as `traces/NNN-workload-scenario-R.pftrace`, and
/// the budget that decides whether `frugal run` writes it without being asked.
public enum TraceFiles {
    /// The folder of a report set that holds the traces.
    public static let directory = "traces"

    /// Whether to write the traces.
    public enum Mode: Sendable {
        /// Each run whose trace is within ``budget(seconds:)`` (the default of `frugal run`).
        case withinBudget
        /// Every run, whatever its size (`--trace`).
        case always
        /// None (`--no-trace`).
        case never
    }

    /// The most bytes a run's trace may take when nobody asked for it: 50 MB for a 5-minute run
    /// (issue 25's budget), in proportion for a longer one, never less than 50 MB.
    public static func budget(seconds: Double) -> Int {
        let scale = seconds.isFinite ? max(1, seconds / 300) : 1
        return Int(50_000_000 * min(scale, 1000))
    }

    /// The trace's path inside the report directory: the run's place in the report (so two runs
    /// never share a name) and its names with anything but letters, digits, `.`, `_` and `-` replaced.
    public static func path(index: Int, run: RunReport) -> String {
        let name = "\(run.workload)-\(run.scenario)-\(run.repetition)".unicodeScalars.map { scalar -> String in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? String(scalar) : "-"
        }.joined()
        let number = String(index + 1)
        return "\(directory)/\(String(repeating: "0", count: max(0, 3 - number.count)))\(number)-\(name.prefix(80)).\(PerfettoTraceRenderer.fileExtension)"
    }

    /// Renders the runs' traces, records in each run where its trace is (or why there is none),
    /// and returns the files to write with the report set.
    public static func render(_ report: inout Report, mode: Mode) -> [ReportDirectory.File] {
        guard mode != .never else {
            for index in report.runs.indices { report.runs[index].trace = RunTraceFile(omitted: "not asked for (--no-trace)") }
            return []
        }
        var files: [ReportDirectory.File] = []
        for index in report.runs.indices {
            let run = report.runs[index]
            let bytes = PerfettoTraceRenderer.render(run)
            let budget = budget(seconds: run.durationSeconds)
            if mode == .withinBudget && bytes.count > budget {
                report.runs[index].trace = RunTraceFile(omitted: "\(bytes.count) bytes, over the budget of \(budget) bytes for a \(DisplayFormat.number(run.durationSeconds)) s run (50 MB per 5 minutes); --trace writes it anyway")
                continue
            }
            let path = path(index: index, run: run)
            report.runs[index].trace = RunTraceFile(path: path, bytes: bytes.count)
            files.append(ReportDirectory.File(path: path, data: Data(bytes)))
        }
        return files
    }

    /// Writes the report set with the traces in it (`ReportFiles.write` and the trace files, as one set).
    @discardableResult
    public static func writeSet(_ report: Report, traces: [ReportDirectory.File], to directory: URL, history: ReportHistory? = nil,
                                evidence: RunEvidence? = nil) throws -> [URL] {
        let evidenceFile = evidence.map { evidence in
            ReportDirectory.File(path: RunEvidence.fileName) { url in try EvidenceFile.write(evidence, to: url) }
        }
        return try ReportDirectory.replace(directory, with: ReportFiles.files(report, history: history) + (evidenceFile.map { [$0] } ?? []) + traces,
                                           replaceable: ReportFiles.setNames)
    }

    /// How to open a trace, for the reports and the command line.
    public static let howToOpen = "open https://ui.perfetto.dev and drop the .pftrace file on it (nothing is uploaded: the UI runs in the browser); a trace served over https (a CI artifact) opens directly with https://ui.perfetto.dev/#!/?url=<the trace's https URL>, where the server allows ui.perfetto.dev to fetch it (CORS)"
}
