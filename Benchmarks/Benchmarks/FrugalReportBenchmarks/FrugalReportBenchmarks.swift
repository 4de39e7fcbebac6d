import Benchmark
import Foundation
import FrugalCore
import FrugalReport

/// Rendering cost of a large report: 1,000,000 events (handlers) in one run.
/// Issue 14's bound for writing the report set (report.json written as it is encoded, HTML,
/// Markdown): under 5 s and under 300 MB resident, the report itself included.
let benchmarks: @Sendable () -> Void = {
    // The written report sets (about 200 MB) go when the benchmarks end, not stay in /tmp.
    Benchmark.shutdownHook = { try? FileManager.default.removeItem(at: LargeRun.scratchDirectory) }
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

    // What `frugal compare BASE HEAD` does with two reports of the default suite run 5 times
    // (45 workload·scenario pairs × 5 = 225 runs each): read both, compare, print. Issue 28's
    // bound: under 1 s.
    let compareBounds = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        maxDuration: .seconds(60), maxIterations: 5,
        thresholds: [.wallClock: .init(absolute: [.p90: 1_000_000_000])])
    Benchmark("frugal compare of two 225-run reports (decode both + compare + text)", configuration: compareBounds) { benchmark in
        let (base, head) = try SuiteReports.pair()
        benchmark.startMeasurement()
        // As Compare.swift reads them for its listing: both at once, without their timelines.
        let (baseReport, headRead) = try ReportJSON.pair({ try ReportJSON.decodeWithoutTimelines(Data(contentsOf: base, options: .alwaysMapped)) },
                                                         { try ReportJSON.decodeWithoutTimelines(Data(contentsOf: head, options: .alwaysMapped)) })
        var headReport = headRead
        headReport.comparison = ReportComparator.compare(base: baseReport, head: headReport, baseline: base.path)
        blackHole(ComparisonTextRenderer.render(headReport.comparison!))
    }

    // What `frugal run` does once the runs are over: the three files of the report set. Issue
    // 28's bound: under 2 s and 150 MB. CPU time beside the wall clock: on a shared machine the
    // wall clock says as much about the others' load as about this (docs/AT-SCALE.md).
    let setBounds = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident, .mallocCountTotal],
        maxDuration: .seconds(60), maxIterations: 3,
        thresholds: [
            .wallClock: .init(absolute: [.p90: 2_000_000_000]),
            .peakMemoryResident: .init(absolute: [.p90: 150_000_000]),
        ])
    Benchmark("report set of 1,000,000 events (report.json + report.html + summary.md)", configuration: setBounds) { benchmark in
        let report = LargeRun.report(events: 1_000_000)
        benchmark.startMeasurement()
        try ReportFiles.write(report, to: LargeRun.scratchDirectory)
    }
}

/// glibc's malloc_trim(3), which Swift's Glibc module does not export: hands freed heap memory
/// back to the system.
@_silgen_name("malloc_trim")
func glibcMallocTrim(_ pad: Int) -> Int32

/// One long run: `events` main-thread handlers of 1–20 ms, a /proc sample per 10 handlers.
enum LargeRun {
    static let environment = EnvironmentInfo(hostname: "bench", kernel: "k", cores: 2, memoryBytes: 1, virtualMachine: true,
                                             papiVersion: nil, counters: [], notes: [])

    static let scratchDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-bench-\(getpid())")
    static var scratch: URL {
        try? FileManager.default.createDirectory(at: scratchDirectory, withIntermediateDirectories: true)
        return scratchDirectory.appendingPathComponent("report.json")
    }

    /// A report whose one run has `count` handlers on its timeline (and a /proc sample per 10),
    /// made without building it from a raw record of that size: building holds the record and
    /// its analysis at once, and the resident peak package-benchmark reports is the process's,
    /// so it would measure the build rather than the writing. The audits and metrics are those
    /// of a real build of the first 1,000 events.
    static func report(events count: Int) -> Report {
        var report = ReportBuilder.build(records: [record(events: 1_000)], tool: ToolInfo(version: "bench"), generatedAt: "now", environment: environment)
        var handlers: [HandlerSpan] = []
        handlers.reserveCapacity(count)
        var activity: [ActivitySample] = []
        activity.reserveCapacity(count / 10)
        var time = 1.0
        for index in 0..<count {
            let milliseconds = Double(1 + index % 20)
            handlers.append(HandlerSpan(name: "timer:<\(index % 7)>", start: time, durationMs: milliseconds, cpuMs: milliseconds / 2,
                                        contextSwitches: 1, waitingMs: nil))
            if index % 10 == 0 {
                activity.append(ActivitySample(time: time, interval: 0.2, wakeups: 10, cpuSeconds: 0.01, residentBytes: 8 << 20))
            }
            time += (milliseconds + 1) / 1000
        }
        report.runs[0].timeline.handlers = handlers
        report.runs[0].timeline.activity = activity
        report.runs[0].timeline.duration = time
        return report
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

/// Two report.json files of a suite's size: 45 workload·scenario pairs, 5 repetitions each, every
/// run 10 s with a handler every 100 ms, a /proc sample every 200 ms and the steps of `standard`
/// (about what a real default-suite run records), written once per process.
enum SuiteReports {
    static let directory = LargeRun.scratchDirectory.appendingPathComponent("compare")
    nonisolated(unsafe) static var written: (URL, URL)?

    static func pair() throws -> (URL, URL) {
        if let written { return written }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let base = directory.appendingPathComponent("base.json"), head = directory.appendingPathComponent("head.json")
        try ReportJSONWriter.write(report(shift: 0), to: base)
        try ReportJSONWriter.write(report(shift: 1), to: head)
        written = (base, head)
        return (base, head)
    }

    static func report(shift: Int) -> Report {
        var records: [RunRecord] = []
        for pair in 0..<45 {
            for repetition in 1...5 {
                records.append(record(workload: "workload.\(pair)", repetition: repetition, handlers: 100 + (pair * 7 + repetition + shift) % 13))
            }
        }
        return ReportBuilder.build(records: records, tool: ToolInfo(version: "bench"), generatedAt: "now", environment: LargeRun.environment)
    }

    static func record(workload: String, repetition: Int, handlers: Int) -> RunRecord {
        let second: UInt64 = 1_000_000_000
        var events: [WorkloadEvent] = []
        var time = second
        for index in 0..<handlers {
            let duration = UInt64(1 + index % 5) * 1_000_000
            events.append(WorkloadEvent(time: time + duration, body: .handler(HandlerRecord(name: "timer:<\(index % 3)>", start: time, end: time + duration))))
            time += second / 10
        }
        let samples = (0..<50).map { index in
            ProcessSample(time: second + UInt64(index) * second / 5,
                          threads: [ThreadSample(tid: 1, name: "main", voluntaryContextSwitches: index * 3, involuntaryContextSwitches: 0,
                                                 onCPUNanoseconds: UInt64(index) * 1_000_000)])
        }
        return RunRecord(workload: workload, scenario: "standard", repetition: repetition, startTime: second, endTime: 11 * second,
                         pid: 1, steps: [], events: events, samples: samples, outcome: .completed, outcomeDetail: nil,
                         exitStatus: ExitStatus(code: 0), resourceUsage: nil)
    }
}
