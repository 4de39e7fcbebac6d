import Foundation
import FrugalCore

/// Writes a report's files into a directory: `report.json`, `report.html`, `summary.md`, as one
/// set (`ReportDirectory`): a reader sees the old set or the new one, never a mix.
public enum ReportFiles {
    public static let jsonName = "report.json"
    public static let htmlName = "report.html"
    public static let markdownName = "summary.md"

    /// The top-level names a report directory may hold: a directory with nothing else in it is
    /// replaced whole when a new set is written.
    public static var setNames: Set<String> { [jsonName, htmlName, markdownName, RunEvidence.fileName, TraceFiles.directory] }

    /// The files of a report set, by path inside the directory. report.json is written as it is
    /// encoded: its size grows with the events. The HTML page and the Markdown summary are
    /// rendered on another thread from here on, while report.json is written (on two cores the
    /// set takes the longer of the two, not their sum); writing either waits for them.
    public static func files(_ report: Report, history: ReportHistory? = nil) -> [ReportDirectory.File] {
        let pages = Rendering {
            (html: Data(HTMLReportRenderer.render(report, history: history).utf8), markdown: Data(MarkdownSummaryRenderer.render(report).utf8))
        }
        return [
            ReportDirectory.File(path: jsonName) { try ReportJSONWriter.write(report, to: $0) },
            ReportDirectory.File(path: htmlName) { try pages.value.html.write(to: $0) },
            ReportDirectory.File(path: markdownName) { try pages.value.markdown.write(to: $0) },
        ]
    }

    /// A value computed on a thread of its own from the start; `value` waits for it.
    final class Rendering<Value: Sendable>: @unchecked Sendable {
        // @unchecked: `result` is written once on the thread before `done` is signalled, and read
        // only after waiting for `done`.
        private var result: Value?
        private let done = DispatchSemaphore(value: 0)

        init(_ make: @escaping @Sendable () -> Value) {
            Thread { [self] in
                result = make()
                done.signal()
            }.start()
        }

        var value: Value {
            done.wait()
            done.signal()
            return result!
        }
    }

    /// Writes all three as one set (`ReportDirectory`); returns their paths.
    @discardableResult
    public static func write(_ report: Report, to directory: URL, history: ReportHistory? = nil) throws -> [URL] {
        try ReportDirectory.replace(directory, with: files(report, history: history), replaceable: setNames)
    }

    /// Writes `data` to `url` through a temporary file in the same directory, renamed over the
    /// old file. rename(2) replaces atomically; Foundation's `replaceItemAt` on Linux removed the
    /// old file and then failed ("The file doesn't exist"), so a second run into the same
    /// directory lost its report.json.
    public static func writeAtomically(_ data: Data, to url: URL) throws {
        try writeAtomically(to: url) { try data.write(to: $0) }
    }

    /// Lets `write` fill a temporary file beside `url`, then renames it over `url`.
    /// Refuses (throws) when `url` is anything but absent or a regular file (``OutputPath``),
    /// before writing and again just before the rename.
    public static func writeAtomically(to url: URL, _ write: (URL) throws -> Void) throws {
        try OutputPath.checkReplaceable(url.path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(OutputPath.hiddenSibling(of: url.lastPathComponent, suffix: ".tmp") + "-\(getpid())")
        do {
            try write(temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        do {
            try OutputPath.checkReplaceable(url.path)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw ReportError("cannot rename \(temporary.path) to \(url.path): \(String(cString: strerror(code)))")
        }
    }
}
