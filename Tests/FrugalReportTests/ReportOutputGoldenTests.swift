import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore

/// The report writers' exact output on fixed inputs, held to a digest written down before they
/// were made faster (issue 28): report.json, report.html, summary.md, junit.xml and
/// `frugal compare`'s text, for a run of 20,000 handlers built from its raw record, the
/// hostile report with a comparison and assertions, and a 40-run suite compared with a shifted
/// copy of itself. A change that moves a byte fails here; one that should move bytes updates the
/// table below (`FRUGAL_GOLDEN_PRINT=1` prints it) and says why in its commit.
final class ReportOutputGoldenTests: XCTestCase {
    /// name → (bytes, FNV-1a 64 of the bytes), recorded at 64f9eef, before the speed-ups; the
    /// report.json and report.html rows again after issue 31 added the main thread's hardware
    /// counters and measured energy (only those metrics and their "not measured" lines differ);
    /// the report.html rows again after issue 30 rewrote the rule texts of power.avoid-polling,
    /// network.handle-failures and lifecycle.resume-fast that the HTML report prints (2,403 bytes
    /// more in each, nothing else); and again after issue 30 rewrote the disk rules' texts
    /// (write-changed-portions, avoid-frequent-writes, backup-placement: 1,756 bytes more in each,
    /// nothing else); and every row but compare.text after issue 30 judged resources and
    /// enqueue-together from the process and the wire (the not-applicable reasons of
    /// memory.lazy-resources and memory.map-large-resources now name the bundle, and their rule
    /// texts and enqueue-together's changed: 104–5,184 bytes more in each); and the report.json,
    /// report.html and compare rows after issue 29 added the `threads.peak` metric (a value or
    /// its unavailable line per run, 8 more values compared) and power.avoid-polling's text named
    /// a response's hand-off (216–19,496 bytes more in each); and the report.html rows again
    /// after issue 30 named black-box start-up, kernel cache files and served-body digests in the
    /// rule texts the HTML prints (1,273 bytes more in each, nothing else); and once more when
    /// write-changed-portions' rule text said a write changes at least one block (103 bytes more),
    /// and when avoid-frequent-writes' evidence said it counts the journal too (124 more); and when
    /// the repetition rule allowed one fewer against a larger side and said so wherever it is
    /// named (73 bytes more per insufficient value's reason, 61 in the comparison's HTML line);
    /// and the report.json rows when `mainThread.waitingMs` named where its CPU time came from
    /// instead of always `perf::TASK-CLOCK` (23 bytes more per source, nothing else); and the
    /// report.json and report.html rows when both main-thread audits left out willTerminate (its
    /// source 18 bytes more in the JSON, the two rule texts 198 bytes more in the HTML); and the
    /// report.html rows when backup-placement's rule text said an app's download in Application
    /// Support of unseen exclusion is left out (231 bytes more, nothing else); and when
    /// avoid-polling's said a black-box program draws only with a display server (121 bytes more);
    /// and when no-long-blocks' said a program's start-up is loading, not a hang (118 bytes more);
    /// and when the two footprint audits' texts said an HTTP client's open connections are the
    /// platform's (675 bytes more, nothing else); and when quiesce-when-inactive's said requests in
    /// flight are not judged while inactive (772 bytes more, nothing else); and when
    /// avoid-frequent-writes' said each burst of a file held open is a write (251 bytes more); and
    /// when write-budget's said the kernel's view is its measure for an app (197 bytes more); and
    /// when avoid-polling's said what an app does after an input is not idle, and
    /// avoid-frequent-writes' advice named a rescheduled Timer for a debounce (488 bytes more);
    /// and when enqueue-together's said a link the app followed is not held back (151 more);
    /// and when quiesce-when-inactive's and avoid-polling's said an input's follow-up may run
    /// into an interruption (176 bytes more).
    static let golden: [String: (bytes: Int, digest: UInt64)] = [
        "large.report.json": (3160039, 0x37c3607b6985fb6a),
        "large.report.html": (333739, 0x60268252432bc7f3),
        "large.summary.md": (3567, 0xd3ac51b16ae28cb6),
        "large.junit.xml": (7079, 0xa8cf4cba7ce330eb),
        "everything.report.json": (96811, 0xfdd1abedb4b91ca8),
        "everything.report.html": (79870, 0xe595d158ca777b3c),
        "everything.summary.md": (4846, 0x7cb6289ff5d4d2d3),
        "everything.junit.xml": (9391, 0x7060f5eb09dd661f),
        "compare.text": (122, 0x6af5ecfe221d6967),
        "compare.report.json": (2623336, 0x54d5c76dfc872b5c),
        "compare.report.html": (888182, 0x2c116040e974b340),
        "compare.summary.md": (25044, 0xb53c6ca7fb0af91e),
        "compare.junit.xml": (53194, 0xfa6d11ab63c08190),
    ]

    /// FNV-1a, 64 bits: a fixed function (Swift's `Hasher` is seeded per process).
    static func digest<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// A run of `count` handlers of 1–20 ms (a /proc sample per 10), as the benchmark's, plus a
    /// few hangs and a handler with a name JSON escapes, built from its raw record.
    static func largeReport(events count: Int) -> Report {
        var events: [WorkloadEvent] = []
        var samples: [ProcessSample] = []
        var time: UInt64 = 1_000_000_000
        for index in 0..<count {
            var duration = UInt64(1 + index % 20) * 1_000_000
            if index % 4_999 == 17 { duration = 300_000_000 + UInt64(index) * 1_000 }
            let name = index == 123 ? "quote \" tab\t é" : "timer:<\(index % 7)>"
            events.append(WorkloadEvent(time: time + duration, body: .handler(HandlerRecord(name: name, start: time, end: time + duration))))
            if index % 10 == 0 {
                samples.append(ProcessSample(time: time, threads: [ThreadSample(tid: 1, name: "main", voluntaryContextSwitches: index,
                                                                                 involuntaryContextSwitches: index / 3, onCPUNanoseconds: time / 2)]))
            }
            time += duration + 1_000_000
        }
        let record = RunRecord(workload: "large", scenario: "synthetic", repetition: 1, startTime: 1_000_000_000, endTime: time,
                               pid: 1, steps: [], events: events, samples: samples, outcome: .completed, outcomeDetail: nil,
                               exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        return ReportBuilder.build(records: [record], tool: ToolInfo(version: "golden"), generatedAt: "2026-11-26T00:00:00Z",
                                   environment: ReportTests.environment)
    }

    /// `pairs` workloads × 5 repetitions of 10 s runs, a handler every 100 ms; `shift` moves
    /// the handler counts so that a comparison finds differences.
    static func suite(pairs: Int, shift: Int) -> Report {
        let second: UInt64 = 1_000_000_000
        var records: [RunRecord] = []
        for pair in 0..<pairs {
            for repetition in 1...5 {
                var events: [WorkloadEvent] = []
                var time = second
                for index in 0..<(60 + (pair * 7 + repetition + shift * pair) % 13) {
                    let duration = UInt64(1 + (index + shift) % 5) * 1_000_000
                    events.append(WorkloadEvent(time: time + duration, body: .handler(HandlerRecord(name: "timer:<\(index % 3)>", start: time, end: time + duration))))
                    time += second / 10
                }
                let samples = (0..<50).map { index in
                    ProcessSample(time: second + UInt64(index) * second / 5,
                                  threads: [ThreadSample(tid: 1, name: "main", voluntaryContextSwitches: index * (3 + shift), involuntaryContextSwitches: 0,
                                                         onCPUNanoseconds: UInt64(index) * 1_000_000)])
                }
                records.append(RunRecord(workload: "workload.\(pair)", scenario: "standard", repetition: repetition, startTime: second, endTime: 11 * second,
                                         pid: 1, steps: [], events: events, samples: samples, outcome: .completed, outcomeDetail: nil,
                                         exitStatus: ExitStatus(code: 0), resourceUsage: nil))
            }
        }
        return ReportBuilder.build(records: records, tool: ToolInfo(version: "golden"), generatedAt: "2026-11-26T00:00:00Z",
                                   environment: ReportTests.environment)
    }

    /// Every output of every fixed input, by name.
    static func outputs() throws -> [(name: String, bytes: [UInt8])] {
        var outputs: [(String, [UInt8])] = []
        func add(_ name: String, _ report: Report) throws {
            outputs.append(("\(name).report.json", [UInt8](try ReportJSONWriter.encode(report))))
            outputs.append(("\(name).report.html", Array(HTMLReportRenderer.render(report).utf8)))
            outputs.append(("\(name).summary.md", Array(MarkdownSummaryRenderer.render(report).utf8)))
            outputs.append(("\(name).junit.xml", Array(JUnitRenderer.render(report).utf8)))
        }
        try add("large", largeReport(events: 20_000))
        try add("everything", CIOutputTests.reportWithEverything())
        // What `frugal compare` reads and writes: both reports through report.json, as from files.
        let base = try ReportJSON.decode(ReportJSONWriter.encode(suite(pairs: 8, shift: 0)))
        var head = try ReportJSON.decode(ReportJSONWriter.encode(suite(pairs: 8, shift: 1)))
        head.comparison = ReportComparator.compare(base: base, head: head, baseline: "base.json")
        outputs.append(("compare.text", Array(ComparisonTextRenderer.render(head.comparison!).utf8)))
        try add("compare", head)
        return outputs
    }

    func testReportOutputsAreByteForByteThoseRecordedBeforeTheSpeedUps() throws {
        let outputs = try Self.outputs()
        if ProcessInfo.processInfo.environment["FRUGAL_GOLDEN_PRINT"] != nil {
            for (name, bytes) in outputs {
                print("        \"\(name)\": (\(bytes.count), 0x\(String(Self.digest(bytes), radix: 16))),")
            }
        }
        XCTAssertEqual(Set(outputs.map(\.name)), Set(Self.golden.keys), "the table names every output")
        // And as `frugal run` writes the set: report.json through the background writer, the page
        // and the summary rendered beside it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-golden-set-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try ReportFiles.write(Self.largeReport(events: 20_000), to: directory)
        for (file, name) in [(ReportFiles.jsonName, "large.report.json"), (ReportFiles.htmlName, "large.report.html"), (ReportFiles.markdownName, "large.summary.md")] {
            let written = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
            XCTAssertTrue(written == outputs.first { $0.name == name }?.bytes, "\(file) as written differs from \(name)")
        }
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-golden-\(getpid())")
        for (name, bytes) in outputs {
            guard let expected = Self.golden[name] else { continue }
            let digest = Self.digest(bytes)
            if bytes.count != expected.bytes || digest != expected.digest {
                // Kept for a diff against the same output of the commit the table was recorded at.
                try? FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
                try? Data(bytes).write(to: kept.appendingPathComponent(name))
                XCTFail("\(name): \(bytes.count) bytes, digest 0x\(String(digest, radix: 16)); recorded \(expected.bytes) bytes, 0x\(String(expected.digest, radix: 16)) (written to \(kept.path))")
            }
        }
    }
}
