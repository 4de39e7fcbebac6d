import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore

/// The per-thread table in report.json (against the schema), report.html and summary.md.
final class ThreadsReportTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000

    /// A 10 s wait sampled every second: main (100) quiet, libdispatch's manager (101) waking
    /// once a second, shown by its stack, and a default-QoS pool thread (102) that arms the monitor.
    static func report() -> Report {
        let start = 1 * s
        let samples = (0...10).map { index in
            ProcessSample(time: start + UInt64(1 + index) * s, threads: [
                ThreadSample(tid: 100, name: "app", voluntaryContextSwitches: 3, involuntaryContextSwitches: 0, onCPUNanoseconds: 1000, state: "S"),
                ThreadSample(tid: 101, name: "-qos.overcommit", voluntaryContextSwitches: 2 + index, involuntaryContextSwitches: 0,
                             onCPUNanoseconds: UInt64(index) * 20_000, state: "S"),
                ThreadSample(tid: 102, name: "oot.default-qos", voluntaryContextSwitches: 1, involuntaryContextSwitches: 0, onCPUNanoseconds: 0, state: "S"),
            ])
        }
        let steps = [StepRecord(index: 0, step: .launch, start: start, end: start + s / 2),
                     StepRecord(index: 1, step: .wait(seconds: 10), start: start + s, end: start + 11 * s, phaseStart: start + s,
                                sampleAtStart: samples[0], sampleAtEnd: samples[10])]
        var record = RunRecord(workload: "threads.global-queue-once", scenario: "short-idle", repetition: 1, startTime: start,
                               endTime: start + 12 * s, pid: 100, steps: steps, events: [], samples: samples, outcome: .completed,
                               outcomeDetail: nil, exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        let frame = { (symbol: String) in StackFrame(module: "libdispatch.so", symbol: symbol, address: "0x1") }
        record.threadEvidence = [ThreadEvidence(pid: 100, tid: 100, name: "app"),
                                 ThreadEvidence(pid: 100, tid: 101, name: "-qos.overcommit", syscall: "232",
                                                stack: [frame("_dispatch_event_loop_drain"), frame("_dispatch_mgr_invoke"),
                                                        frame("_dispatch_mgr_thread"), frame("_dispatch_worker_thread")]),
                                 ThreadEvidence(pid: 100, tid: 102, name: "oot.default-qos", stack: [frame("_dispatch_worker_thread")])]
        return ReportBuilder.build(records: [record], tool: ToolInfo(version: "t"), generatedAt: "now", environment: ReportTests.environment)
    }

    func testTheThreadTableIsInEveryOutput() throws {
        let report = Self.report()
        let threads = try XCTUnwrap(report.runs.first?.threads)
        XCTAssertEqual(threads.threads.map(\.role), [.dispatchManager, .main, .dispatchWorker])
        XCTAssertEqual(threads.platformIdleWakeups, 10)
        XCTAssertEqual(threads.appIdleWakeups, 0)
        let data = try ReportJSON.encode(report)
        let errors = try ReportTests.validator().validate(data)
        XCTAssertEqual(errors, [], errors.joined(separator: "\n"))
        XCTAssertEqual(try ReportJSON.decode(data).runs.first?.threads, threads)
        let html = HTMLReportRenderer.render(report)
        XCTAssertTrue(html.contains("idle wakeups charged to the app 0, platform 10"), "the table's summary line")
        XCTAssertTrue(html.contains("<td>libdispatch-manager<td>10<td>"), "the manager's row, with its wakeups")
        XCTAssertTrue(html.contains("stack: _dispatch_mgr_invoke (libdispatch.so); pool monitor: thread 102 &#39;oot.default-qos&#39;")
                      || html.contains("stack: _dispatch_mgr_invoke (libdispatch.so); pool monitor: thread 102 &#x27;oot.default-qos&#x27;")
                      || html.contains("stack: _dispatch_mgr_invoke (libdispatch.so); pool monitor: thread 102 'oot.default-qos'"),
                      "the evidence for the role and for the monitor")
        XCTAssertTrue(html.contains("_dispatch_workq_monitor_pools"), "the reason the platform's wakeups are not charged")
        let markdown = MarkdownSummaryRenderer.render(report)
        XCTAssertTrue(markdown.contains("## Idle wakeups not charged to the app"))
        XCTAssertTrue(markdown.contains("| threads.global-queue-once · short-idle | 1 | 10 | 0 |"), markdown)
    }
}
