import Foundation
import FrugalConfig
import FrugalCore
import FrugalReport

/// What Frugal reads from others, one entry per libFuzzer target in `Fuzz/`: each takes any bytes
/// and must return without trapping, quickly. They live in the main build so that the test suite
/// replays the committed seeds and a bounded set of their mutations through the very same code
/// (`FuzzReplayTests`) on every CI run, while `scripts/fuzz.sh` runs them under libFuzzer and the
/// sanitizer (a build of its own) for as long as one likes.
public enum FuzzTargets {
    /// The targets by the name of their seed directory in `Fuzz/Corpus/`.
    public static let all: [(name: String, seeds: String, body: @Sendable ([UInt8]) -> Void)] = [
        ("FuzzEventStream", "event-stream", eventStream),
        ("FuzzConfig", "config", config),
        ("FuzzReport", "report", report),
    ]

    /// The event pipe is the workload's to write. The first byte picks where the input is split
    /// into two reads, so lines that straddle reads are exercised too.
    public static func eventStream(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let split = bytes.count > 1 ? 1 + Int(first) % (bytes.count - 1) : 1
        var decoder = EventStreamDecoder()
        let items = decoder.feed(bytes[1..<split]) + decoder.feed(bytes[split...])
        // What decodes goes through the analysis and the report as a run's events would: a
        // crafted number once overflowed a sum of write lengths and a hang's deadline there.
        let events = items.compactMap { item -> WorkloadEvent? in if case .event(let event) = item { return event } else { return nil } }
        guard !events.isEmpty else { return }
        let start = events.map(\.time).min() ?? 0
        let record = RunRecord(workload: "fuzz", scenario: "standard", repetition: 1, startTime: start,
                               endTime: max(start, events.map(\.time).max() ?? start), pid: 1,
                               steps: [StepRecord(index: 0, step: .launch, start: start, end: start)], events: events, samples: [],
                               outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        _ = ReportBuilder.runReport(record)
    }

    /// A config file is anyone's to write: any text must give a config or a one-line error. Both
    /// loaders: assertions (`--config`) and the project's frugal.yml (apps, scenarios, assert),
    /// whose relative paths resolve in an empty directory.
    public static func config(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        checkConfig { _ = try AssertionConfigLoader.parse(text, file: "fuzz.yml") }
        checkConfig { _ = try ProjectConfigLoader.parse(text, file: "frugal.yml", directory: emptyDirectory) }
    }

    /// report.json files come from other CI jobs. Whatever decodes must render in every format
    /// and compare against itself without trapping (a score of 1e17 once killed every renderer).
    public static func report(_ bytes: [UInt8]) {
        guard let report = try? ReportJSON.decode(Data(bytes)) else { return }
        _ = HTMLReportRenderer.render(report, history: nil)
        _ = MarkdownSummaryRenderer.render(report)
        _ = JUnitRenderer.render(report)
        _ = GitHubAnnotations.render(report)
        let comparison = ReportComparator.compare(base: report, head: report, baseline: "fuzz.json")
        _ = ComparisonTextRenderer.render(comparison)
        _ = try? ReportJSON.encode(report)
    }

    private static let emptyDirectory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-fuzz-config-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // Removed when the process exits (it stays empty): each test run left one in /tmp.
        atexit { _ = rmdir(FileManager.default.temporaryDirectory.appendingPathComponent("frugal-fuzz-config-\(getpid())").path) }
        return url
    }()

    private static func checkConfig(_ body: () throws -> Void) {
        do {
            try body()
        } catch let error as ConfigError {
            let line = error.description
            precondition(!line.contains("\n") && line.count < 1000, "a config error must be one short line: \(line.prefix(200))")
        } catch {
            preconditionFailure("a config loader threw something other than ConfigError: \(error)")
        }
    }
}
