import Foundation
import FrugalCore

/// The disk part of a run's details: bytes written as each source counts them, and the files
/// by location (written, changed, left at the end, backed up or not).
extension HTMLReportRenderer {
    static func diskDetails(_ run: RunReport) -> String {
        var html = ""
        let sources: [(String, String)] = [
            (MetricName.diskLogicalBytesWritten, "through FrugalKit (the write journal)"),
            (MetricName.diskSyscallBytesWritten, "all write calls of the process (wchar: files, pipes, terminals)"),
            (MetricName.diskEventStreamBytes, "of those, the event stream to the harness"),
            (MetricName.diskUnjournaledBytesWritten, "the gap: written around FrugalKit"),
            (MetricName.diskPhysicalBytesWritten, "reached storage (pages dirtied)"),
        ]
        let present = sources.filter { run.metrics[$0.0] != nil }
        if run.files != nil || run.timeline.disk != nil, !present.isEmpty {
            html += "<div class=\"scroll\"><table class=\"metrics disk\"><thead><tr><th>bytes written</th><th>value</th><th>source</th></tr></thead><tbody>"
            for (name, meaning) in present {
                let metric = run.metrics[name]!
                let value = metric.value.map { number($0, unit: metric.unit) } ?? "<span class=\"unavailable\">unavailable: \(e(metric.unavailable ?? ""))</span>"
                html += "<tr><td>\(e(meaning))</td><td>\(value)</td><td><code>\(e(metric.source))</code></td></tr>"
            }
            html += "</tbody></table></div>"
        }
        guard let files = run.files, !files.isEmpty else { return html }
        html += "<div class=\"scroll\"><table class=\"metrics files\"><thead><tr><th>file</th><th>location</th><th>data</th><th>writes</th><th>bytes written</th><th>changed</th><th>fsyncs</th><th>at the end</th><th>backed up</th></tr></thead><tbody>"
        let order = Dictionary(uniqueKeysWithValues: SandboxLocation.allCases.enumerated().map { ($1, $0) })
        for file in files.sorted(by: { (order[$0.location] ?? 0, $0.path) < (order[$1.location] ?? 0, $1.path) }) {
            let backedUp: String
            switch (file.backedUp, file.exclusion) {
            case (nil, _): backedUp = "not scanned"
            case (_, .some(let mechanism)): backedUp = "no (excluded: \(mechanism.rawValue))"
            case (.some(true), nil): backedUp = "<b>yes</b>"
            case (.some(false), nil): backedUp = file.bytesAtEnd == nil ? "gone" : "no (\(e(file.location.title)))"
            }
            html += "<tr><td><code>\(e(file.path))</code></td><td>\(e(file.location.title))</td><td>\(e(file.dataClass?.rawValue ?? "not declared"))</td>"
            html += "<td>\(file.writes)</td><td>\(number(Double(file.bytesWritten), unit: "bytes"))</td><td>\(number(Double(file.changedBytes), unit: "bytes"))</td>"
            html += "<td>\(file.fsyncs)</td><td>\(file.bytesAtEnd.map { number(Double($0), unit: "bytes") } ?? "–")</td><td>\(backedUp)</td></tr>"
        }
        return html + "</tbody></table></div>"
    }
}
