import Benchmark
import Foundation
import FrugalCore
import FrugalReport

/// Rendering cost of a large report: 1,000,000 events (handlers) in one run.
/// Issue 14's bound for writing the report set (report.json written as it is encoded, HTML,
/// Markdown): under 5 s and under 300 MB resident, the report itself included.
let benchmarks: @Sendable () -> Void = {
    let bounds = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
        maxDuration: .seconds(60), maxIterations: 3,
        thresholds: [
            .wallClock: .init(absolute: [.p90: 5_000_000_000]),
            .peakMemoryResident: .init(absolute: [.p90: 300_000_000]),
        ])

    // Building the report from its raw records holds both at once (issue 7's bound).
    let buildBounds = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
        maxDuration: .seconds(60), maxIterations: 3,
        thresholds: [
            .wallClock: .init(absolute: [.p90: 10_000_000_000]),
            .peakMemoryResident: .init(absolute: [.p90: 500_000_000]),
        ])

    Benchmark("report.html of 1,000,000 events (build + render)", configuration: buildBounds) { benchmark in
        let record = LargeRun.record(events: 1_000_000)
        benchmark.startMeasurement()
        let report = ReportBuilder.build(records: [record], tool: ToolInfo(version: "bench"), generatedAt: "now", environment: LargeRun.environment)
        blackHole(HTMLReportRenderer.render(report))
        blackHole(MarkdownSummaryRenderer.render(report))
    }

    Benchmark("report.json of 1,000,000 events (encode)", configuration: bounds) { benchmark in
        let report = LargeRun.report(events: 1_000_000)
        benchmark.startMeasurement()
        try ReportJSONWriter.write(report, to: LargeRun.scratch)
    }

    // What `frugal run` does once the runs are over: the three files of the report set.
    Benchmark("report set of 1,000,000 events (report.json + report.html + summary.md)", configuration: bounds) { benchmark in
        let report = LargeRun.report(events: 1_000_000)
        benchmark.startMeasurement()
        try ReportFiles.write(report, to: LargeRun.scratchDirectory)
    }
}

/// One long run: `events` main-thread handlers of 1–20 ms, a /proc sample per 10 handlers.
enum LargeRun {
    static let environment = EnvironmentInfo(hostname: "bench", kernel: "k", cores: 2, memoryBytes: 1, virtualMachine: true,
                                             papiVersion: nil, counters: [], notes: [])

    static let scratchDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-bench-\(getpid())")
    static var scratch: URL {
        try? FileManager.default.createDirectory(at: scratchDirectory, withIntermediateDirectories: true)
        return scratchDirectory.appendingPathComponent("report.json")
    }

    /// The report of one run of `count` events; the record it was built from is freed.
    static func report(events count: Int) -> Report {
        ReportBuilder.build(records: [record(events: count)], tool: ToolInfo(version: "bench"), generatedAt: "now", environment: environment)
    }

    static func record(events count: Int) -> RunRecord {
        var events: [WorkloadEvent] = []
        events.reserveCapacity(count)
        var samples: [ProcessSample] = []
        var time: UInt64 = 1_000_000_000
        for index in 0..<count {
            let duration = UInt64(1 + index % 20) * 1_000_000
            events.append(WorkloadEvent(time: time + duration, body: .handler(HandlerRecord(name: "timer:<\(index % 7)>", start: time, end: time + duration))))
            if index % 10 == 0 {
                samples.append(ProcessSample(time: time, threads: [ThreadSample(tid: 1, name: "main", voluntaryContextSwitches: index, involuntaryContextSwitches: 0, onCPUNanoseconds: time / 2)]))
            }
            time += duration + 1_000_000
        }
        return RunRecord(workload: "large", scenario: "synthetic", repetition: 1, startTime: 1_000_000_000, endTime: time,
                         pid: 1, steps: [], events: events, samples: samples, outcome: .completed, outcomeDetail: nil,
                         exitStatus: ExitStatus(code: 0), resourceUsage: nil)
    }
}
