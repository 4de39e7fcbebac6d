import Foundation
import FrugalCore

/// Writes a report's files into a directory: `report.json`, `report.html`, `summary.md`.
/// Each file is written to a temporary name and renamed, so a reader never sees half a file.
public enum ReportFiles {
    public static let jsonName = "report.json"
    public static let htmlName = "report.html"
    public static let markdownName = "summary.md"

    /// Writes all three; returns their paths.
    @discardableResult
    public static func write(_ report: Report, to directory: URL, history: ReportHistory? = nil) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // report.json is written as it is encoded: its size grows with the events.
        let json = directory.appendingPathComponent(jsonName)
        try writeAtomically(to: json) { try ReportJSONWriter.write(report, to: $0) }
        let files: [(String, Data)] = [
            (htmlName, Data(HTMLReportRenderer.render(report, history: history).utf8)),
            (markdownName, Data(MarkdownSummaryRenderer.render(report).utf8)),
        ]
        return try [json] + files.map { name, data in
            let url = directory.appendingPathComponent(name)
            try writeAtomically(data, to: url)
            return url
        }
    }

    /// Writes `data` to `url` through a temporary file in the same directory, renamed over the
    /// old file. rename(2) replaces atomically; Foundation's `replaceItemAt` on Linux removed the
    /// old file and then failed ("The file doesn't exist"), so a second run into the same
    /// directory lost its report.json.
    public static func writeAtomically(_ data: Data, to url: URL) throws {
        try writeAtomically(to: url) { try data.write(to: $0) }
    }

    /// Lets `write` fill a temporary file beside `url`, then renames it over `url`.
    public static func writeAtomically(to url: URL, _ write: (URL) throws -> Void) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
        do {
            try write(temporary)
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
