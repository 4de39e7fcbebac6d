import Foundation
import FrugalCore
import FrugalHistory
import FrugalReport

/// A report set made from a run's evidence, one way for `frugal run` and `frugal reaudit`:
/// metrics, audits and scores by this build's rules, the comparison with a baseline, the
/// traces the evidence asks for, the history row, the files.
public enum EvidenceReport {
    /// The report set as written.
    public struct Written: Sendable {
        /// The report, as written.
        public var report: Report
        /// The files of the set, traces last.
        public var files: [URL]
        /// How many of ``files`` are Perfetto traces.
        public var traceCount: Int
        /// Why the run could not be recorded in the history (the report is written).
        public var historyFailure: String?
    }

    /// Makes the report of `evidence` as audited by `tool`, compares it with `baseline`,
    /// appends it to `history` (a database path and the commit to name) and writes the set
    /// with the evidence into `out`. A set that cannot be written takes its history row out
    /// again and throws ``PipelineFailure/Kind/harness``.
    public static func write(_ evidence: RunEvidence, tool: ToolInfo, baseline: (report: Report, name: String)?,
                             history: (path: String, commit: String?)?, to out: URL) throws -> Written {
        var report = evidence.report(tool: tool)
        if let baseline {
            report.comparison = ReportComparator.compare(base: baseline.report, head: report, baseline: baseline.name)
        }
        let mode: TraceFiles.Mode = switch evidence.traces { case "always": .always; case "never": .never; default: .withinBudget }
        let traces = TraceFiles.render(&report, mode: mode)
        let recording = history.map { record(report, in: $0.path, commit: $0.commit) }
        do {
            let files = try TraceFiles.writeSet(report, traces: traces, to: out, history: recording?.trends, evidence: evidence)
            return Written(report: report, files: files, traceCount: traces.count, historyFailure: recording?.failure)
        } catch {
            // The history must not hold a run whose report does not exist.
            recording?.undo()
            throw PipelineFailure.harness("cannot write the report to \(out.path): \(error)")
        }
    }

    /// What recording the run in the history gave: the trends for the HTML report, a way to take
    /// the run out again, or why it could not be recorded.
    struct HistoryRecording {
        var trends: ReportHistory?
        var failure: String?
        var undo: () -> Void = {}
    }

    /// Appends the report to the history (waiting for another run that holds the database, up to
    /// `HistoryStore.defaultBusyTimeout`) and reads back the recent trends.
    static func record(_ report: Report, in path: String, commit: String?) -> HistoryRecording {
        do {
            let store = try HistoryStore(path: path)
            let id = try store.append(report, commit: commit, recordedAt: report.generatedAt)
            let trends = try? store.history(limit: 20)
            return HistoryRecording(trends: trends, failure: nil, undo: { try? store.removeRun(id) })
        } catch {
            return HistoryRecording(trends: nil, failure: "\(error)")
        }
    }
}
