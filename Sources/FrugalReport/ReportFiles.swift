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
        let files: [(String, Data)] = [
            (jsonName, try ReportJSON.encode(report)),
            (htmlName, Data(HTMLReportRenderer.render(report, history: history).utf8)),
            (markdownName, Data(MarkdownSummaryRenderer.render(report).utf8)),
        ]
        return try files.map { name, data in
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
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
        try data.write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw ReportError("cannot rename \(temporary.path) to \(url.path): \(String(cString: strerror(code)))")
        }
    }
}
