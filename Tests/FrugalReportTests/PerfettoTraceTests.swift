import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore

/// The Perfetto trace: the protobuf bytes against the encoding spec's own examples, and a run's
/// trace read back by an independent reader (scripts/perfetto-check.py: Google's protobuf
/// runtime with Perfetto's published schema) and checked against the report.
final class PerfettoTraceTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000
    static let ms: UInt64 = 1_000_000

    /// The examples of https://protobuf.dev/programming-guides/encoding/.
    func testTheWriterEncodesAsTheSpecsExamples() {
        var writer = ProtobufWriter()
        writer.uint(1, 150)
        XCTAssertEqual(writer.bytes, [0x08, 0x96, 0x01], "field 1 = 150")
        writer = ProtobufWriter()
        writer.string(2, "testing")
        XCTAssertEqual(writer.bytes, [0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6e, 0x67], "field 2 = \"testing\"")
        writer = ProtobufWriter()
        writer.message(3) { $0.uint(1, 150) }
        XCTAssertEqual(writer.bytes, [0x1a, 0x03, 0x08, 0x96, 0x01], "field 3 = a message holding field 1 = 150")
        writer = ProtobufWriter()
        writer.int(1, -2)
        XCTAssertEqual(writer.bytes, [0x08, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], "an int64 of -2 takes ten bytes")
        writer = ProtobufWriter()
        writer.double(1, 1.0)
        XCTAssertEqual(writer.bytes, [0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f], "a double is 64-bit little-endian")
    }

    /// A 6 s run: three threads, a 400 ms hang, two memory warnings, a write through FrugalKit.
    static func report() -> Report {
        let start = 1 * s
        let samples = (0...5).map { index in
            ProcessSample(time: start + UInt64(index + 1) * s, threads: [
                ThreadSample(tid: 300, name: "app", voluntaryContextSwitches: 10 + index * 3, involuntaryContextSwitches: 0,
                             onCPUNanoseconds: UInt64(index) * 5 * ms, state: "S"),
                ThreadSample(tid: 301, name: "worker", voluntaryContextSwitches: 100 + index * index, involuntaryContextSwitches: 0,
                             onCPUNanoseconds: UInt64(index) * ms, state: "S"),
            ] + (index >= 2 ? [ThreadSample(tid: 302, name: "late", voluntaryContextSwitches: 7 * index, involuntaryContextSwitches: 0,
                                            onCPUNanoseconds: 0, state: "S")] : []),
            residentBytes: 10_000_000 + index * 1000, physicalBytesWritten: index * 4096, charactersWritten: index * 5000)
        }
        let handlers: [(String, UInt64, UInt64)] = [("didFinishLaunching", start + 10 * ms, start + 60 * ms),
                                                     ("input:load", start + 2 * s, start + 2 * s + 400 * ms),
                                                     ("memoryWarning", start + 3 * s, start + 3 * s + 5 * ms),
                                                     ("memoryWarning", start + 4 * s, start + 4 * s + 7 * ms)]
        var events = handlers.map { WorkloadEvent(time: $0.2, body: .handler(HandlerRecord(name: $0.0, start: $0.1, end: $0.2, cpuNanoseconds: 1000, contextSwitches: 2))) }
        events.insert(WorkloadEvent(time: start + 20 * ms, body: .ack(Ack(sequence: 0))), at: 1)
        var record = RunRecord(workload: "trace.sample", scenario: "atlas", repetition: 1, startTime: start, endTime: start + 6500 * ms,
                               pid: 300, steps: [StepRecord(index: 0, step: .launch, start: start, end: start + 100 * ms),
                                                 StepRecord(index: 1, step: .memoryWarning(level: .warning), start: start + 3 * s, end: start + 3 * s + 10 * ms),
                                                 StepRecord(index: 2, step: .wait(seconds: 2), start: start + 3 * s, end: start + 5 * s)],
                               events: events, samples: samples, outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0),
                               resourceUsage: nil)
        record.memory = MemoryRunFacts(deliveries: [WarningDelivery(sequence: 1, level: .warning, origin: "step", time: start + 3 * s),
                                                    WarningDelivery(sequence: 2, level: .critical, origin: "kernel", time: start + 4 * s)])
        record.finalIO = ProcessIOCounters(time: start + 6400 * ms, charactersWritten: 30_000, writeSyscalls: 9, physicalBytesWritten: 24_576,
                                           cancelledBytesWritten: 0)
        record.threadEvidence = [ThreadEvidence(pid: 300, tid: 300, name: "app"), ThreadEvidence(pid: 300, tid: 301, name: "worker")]
        return ReportBuilder.build(records: [record], tool: ToolInfo(version: "t"), generatedAt: "now", environment: ReportTests.environment)
    }

    func testTheLanesAddUpToTheThreadTable() throws {
        let run = try XCTUnwrap(Self.report().runs.first)
        let lanes = try XCTUnwrap(run.timeline.threadLanes)
        XCTAssertEqual(lanes.map(\.tid), [300, 301, 302])
        for row in try XCTUnwrap(run.threads).threads {
            let lane = try XCTUnwrap(lanes.first { $0.tid == row.tid })
            XCTAssertEqual(lane.samples.reduce(0) { $0 + $1.wakeups }, row.wakeups, "thread \(row.tid)")
        }
        XCTAssertEqual(lanes[2].samples.first?.wakeups, 14, "a thread born between samples counts from zero")
        XCTAssertEqual(run.timeline.io?.last, IOLaneSample(time: 6.4, syscallBytes: 30_000, storageBytes: 24_576), "the final counters, at exit")
        let data = try ReportJSON.encode(Self.report())
        let errors = try ReportTests.validator().validate(data)
        XCTAssertEqual(errors, [], errors.joined(separator: "\n"))
    }

    func testTheIndependentReaderFindsTheRunInTheTrace() throws {
        let report = Self.report()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-trace-test-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("run.pftrace"), json = directory.appendingPathComponent("report.json")
        try Data(PerfettoTraceRenderer.render(report.runs[0])).write(to: trace)
        try ReportJSON.encode(report).write(to: json)
        let (status, output) = try Self.check(trace: trace.path, report: json.path)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("hang 'input:load' at 2.000 s of 400.0 ms is a slice of that length"), output)
        XCTAssertTrue(output.contains("memory warning (critical) at 4.000 s is an instant"), output)
        XCTAssertTrue(output.contains("one thread track per thread lane (3 tracks, 3 lanes)"), output)
        XCTAssertTrue(output.contains("'Bytes written (storage)' ends at 24576"), output)
    }

    func testTheBudgetLeavesOutATraceTooLargeUnlessAskedFor() {
        XCTAssertEqual(TraceFiles.budget(seconds: 300), 50_000_000)
        XCTAssertEqual(TraceFiles.budget(seconds: 10), 50_000_000, "never below 50 MB")
        XCTAssertEqual(TraceFiles.budget(seconds: 600), 100_000_000)
        var report = Self.report()
        // 200,000 handlers of a 20 s run: about 9 MB, within the budget.
        report.runs[0].timeline.handlers = (0..<200_000).map { HandlerSpan(name: "frame:tick", start: Double($0) * 0.0001, durationMs: 0.05) }
        let files = TraceFiles.render(&report, mode: .withinBudget)
        XCTAssertEqual(files.map(\.path), ["traces/001-trace.sample-atlas-1.pftrace"])
        XCTAssertGreaterThan(report.runs[0].trace?.bytes ?? 0, 5_000_000)
        var never = Self.report()
        XCTAssertTrue(TraceFiles.render(&never, mode: .never).isEmpty)
        XCTAssertEqual(never.runs[0].trace?.omitted, "not asked for (--no-trace)")
    }

    func testTheHTMLLinksTheTraceAndSaysHowToOpenIt() {
        var report = Self.report()
        _ = TraceFiles.render(&report, mode: .always)
        let html = HTMLReportRenderer.render(report)
        XCTAssertTrue(html.contains("<a href=\"traces/001-trace.sample-atlas-1.pftrace\" download>"), "the run's link")
        XCTAssertTrue(html.contains("https://ui.perfetto.dev/#!/?url="), "how to open a CI artifact")
        XCTAssertTrue(html.contains("drag the <code>.pftrace</code> file onto it"))
    }

    /// Runs the independent reader; skips when Python or its perfetto package is missing.
    static func check(trace: String, report: String? = nil, run: Int = 0) throws -> (Int32, String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/perfetto-check.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, trace] + (report.map { ["--report", $0, "--run", String(run)] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 || process.terminationStatus == 127 {
            throw XCTSkip("the independent trace reader needs python3 and its perfetto package (pip install perfetto protobuf; scripts/setup.sh --ci): \(output)")
        }
        return (process.terminationStatus, output)
    }
}
