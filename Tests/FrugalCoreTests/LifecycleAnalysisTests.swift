import Foundation
import XCTest
@testable import FrugalCore
@testable import FrugalProtocol

/// The lifecycle's pure logic on hand-made records, with exact expected numbers.
final class LifecycleAnalysisTests: XCTestCase {
    static let ms: UInt64 = 1_000_000
    static let s: UInt64 = 1_000_000_000

    static func sample(_ time: UInt64, _ threads: [(tid: Int32, voluntary: Int, cpu: UInt64)], state: String = "S") -> ProcessSample {
        ProcessSample(time: time, threads: threads.map {
            ThreadSample(tid: $0.tid, name: "t", voluntaryContextSwitches: $0.voluntary, involuntaryContextSwitches: 0,
                         onCPUNanoseconds: $0.cpu, state: state)
        })
    }

    static func state(_ time: UInt64, _ from: AppState, _ to: AppState) -> WorkloadEvent {
        WorkloadEvent(time: time, body: .stateChanged(StateChange(from: from, to: to)))
    }

    static func record(events: [WorkloadEvent], steps: [StepRecord] = [], samples: [ProcessSample] = [], end: UInt64 = 10 * s) -> RunRecord {
        RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: 0, endTime: end, pid: 100, steps: steps,
                  events: events, samples: samples, outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0),
                  resourceUsage: nil)
    }

    func testNewStepsReadAsAUserWouldWriteThem() throws {
        let text = #"["launch", {"interrupt": 2.5}, "interrupt", "home", {"notify": "locale-change"}, "foreground", "kill", "relaunch"]"#
        let steps = try JSONDecoder().decode([ScenarioStep].self, from: Data(text.utf8))
        XCTAssertEqual(steps, [.launch, .interrupt(seconds: 2.5), .interrupt(seconds: 1), .home, .notify(name: "locale-change"),
                               .foreground, .kill, .relaunch])
        let again = try JSONDecoder().decode([ScenarioStep].self, from: JSONEncoder().encode(steps))
        XCTAssertEqual(again, steps)
        XCTAssertEqual(steps[1].description, "interrupt(2.5)")
        XCTAssertThrowsError(try JSONDecoder().decode(ScenarioStep.self, from: Data(#"{"interrupt": -1}"#.utf8)))
    }

    func testOffCPUWaitingIsWallMinusCPUMinusRunQueueOnlyWhenTheThreadSlept() {
        // 200 ms wall, 20 ms on CPU, 30 ms runnable but not running, one sleep: 150 ms waiting.
        var handler = HandlerRecord(name: "input:refresh", start: 0, end: 200 * Self.ms, cpuNanoseconds: 20 * Self.ms,
                                    voluntaryContextSwitches: 1, runQueueNanoseconds: 30 * Self.ms)
        XCTAssertEqual(handler.offCPUWaitingNanoseconds, 150 * Self.ms)
        // Never slept: preempted time is not waiting.
        handler.voluntaryContextSwitches = 0
        XCTAssertEqual(handler.offCPUWaitingNanoseconds, 0)
        handler.voluntaryContextSwitches = nil
        XCTAssertNil(handler.offCPUWaitingNanoseconds, "unmeasured is nil, not 0")
    }

    func testLostChangesCompareWhatTheRelaunchedAppRestoredWithWhatItHad() {
        let events = [
            WorkloadEvent(time: 1 * Self.s, body: .preservedState(PreservedStateSnapshot(moment: .launch, values: [:]))),
            WorkloadEvent(time: 2 * Self.s, body: .preservedState(PreservedStateSnapshot(moment: .background, values: ["a": "1", "b": "2", "c": "3"]))),
            WorkloadEvent(time: 4 * Self.s, body: .preservedState(PreservedStateSnapshot(moment: .launch, values: ["a": "1", "b": "old"]))),
        ]
        let analysis = RunAnalysis(Self.record(events: events))
        XCTAssertEqual(analysis.preservationChecks.count, 1)
        XCTAssertEqual(analysis.preservationChecks.first?.lost, ["b", "c"], "b changed, c missing")
        let metrics = MetricExtraction.metrics(of: analysis)
        XCTAssertEqual(metrics[MetricName.lifecycleLostChanges]?.value, 2)
        XCTAssertEqual(Audits.evaluate(analysis, metrics: metrics)["lifecycle.save-state"]?.score, 0)
        // Without a relaunch there is nothing to judge.
        let single = RunAnalysis(Self.record(events: Array(events.prefix(2))))
        XCTAssertEqual(Audits.evaluate(single, metrics: MetricExtraction.metrics(of: single))["lifecycle.save-state"]?.scoreDisplayMode, .notApplicable)
    }

    func testATaskEndedInItsExpirationHandlerIsNotCountedButOneLeftOpenIs() {
        func task(_ time: UInt64, _ id: Int, _ phase: BackgroundTaskPhase) -> WorkloadEvent {
            WorkloadEvent(time: time * Self.s, body: .backgroundTask(BackgroundTaskEvent(id: id, name: "t\(id)", phase: phase)))
        }
        let events = [task(1, 1, .begun), task(1, 2, .begun), task(2, 3, .begun), task(3, 3, .ended),
                      task(5, 1, .expirationHandlerCalled), task(5, 1, .ended), task(5, 2, .expirationHandlerCalled)]
        let analysis = RunAnalysis(Self.record(events: events))
        let tasks = analysis.backgroundTasks
        XCTAssertEqual(tasks.map(\.reachedExpirationUnended), [false, true, false],
                       "#1 ended in its expiration handler (as the guide suggests), #2 never ended, #3 ended before")
        let metrics = MetricExtraction.metrics(of: analysis)
        XCTAssertEqual(metrics[MetricName.lifecycleExpiredBackgroundTasks]?.value, 1)
    }

    func testStateSpansInactiveWakeupsAndSuspendedCost() {
        let events = [Self.state(0, .notRunning, .inactive), Self.state(1 * Self.s, .inactive, .active),
                      Self.state(2 * Self.s, .active, .inactive), Self.state(5 * Self.s, .inactive, .active),
                      Self.state(6 * Self.s, .active, .inactive), Self.state(6 * Self.s, .inactive, .background),
                      Self.state(7 * Self.s, .background, .suspended), Self.state(9 * Self.s, .suspended, .notRunning)]
        // The interruption: 3 s inactive, the main thread woke 6 times, a helper 3 times: 3 wakeups/s.
        let interrupt = StepRecord(index: 1, step: .interrupt(seconds: 3), start: 2 * Self.s, end: 5 * Self.s, phaseStart: 2 * Self.s,
                                   sampleAtStart: Self.sample(2 * Self.s, [(100, 10, 0), (101, 1, 0)]),
                                   sampleAtEnd: Self.sample(5 * Self.s, [(100, 16, 0), (101, 4, 0)]))
        var record = Self.record(events: events, steps: [interrupt], end: 9 * Self.s)
        let stopped = Self.sample(7 * Self.s, [(100, 30, 5 * Self.ms)], state: "T")
        record.suspensions = [SuspensionRecord(pid: 100, start: 7 * Self.s, end: 9 * Self.s, sampleAtStart: stopped,
                                               sampleAtEnd: Self.sample(9 * Self.s, [(100, 30, 5 * Self.ms)], state: "T"),
                                               listeningSockets: [ListeningSocket(proto: "tcp", localAddress: "127.0.0.1:80", inode: 7, fd: 5)])]
        let analysis = RunAnalysis(record)
        XCTAssertEqual(analysis.stateSpans.map(\.state), [.inactive, .active, .inactive, .active, .background, .suspended])
        XCTAssertEqual(analysis.stateSpans.last?.end, 9 * Self.s)
        let metrics = MetricExtraction.metrics(of: analysis)
        XCTAssertEqual(metrics[MetricName.lifecycleInactiveWakeupsPerSecond]?.value, 3)
        XCTAssertEqual(metrics[MetricName.lifecycleSuspendedCpuSeconds]?.value, 0)
        XCTAssertEqual(metrics[MetricName.lifecycleSuspendedWakeups]?.value, 0)
        XCTAssertEqual(metrics[MetricName.lifecycleListeningSocketsWhileSuspended]?.value, 1)
        let audits = Audits.evaluate(analysis, metrics: metrics)
        XCTAssertEqual(audits["lifecycle.close-listeners"]?.score, 0)
        XCTAssertEqual(audits["lifecycle.resume-fast"]?.scoreDisplayMode, .notApplicable)
        XCTAssertEqual(audits["lifecycle.end-background-tasks"]?.scoreDisplayMode, .notApplicable)
    }

    func testBackgroundCPUCountsOnlyTimeWithNoTaskOpen() {
        // Background from 1 s to 4 s; a task open from 1 s to 2 s. Samples every second: the 1–2 s
        // interval (40 ms of CPU) is the task's; 2–3 s (6 ms) and 3–4 s (0 ms) count: 6 ms in 2 s.
        let events = [Self.state(0, .notRunning, .active), Self.state(1 * Self.s, .active, .background),
                      WorkloadEvent(time: 1 * Self.s, body: .backgroundTask(BackgroundTaskEvent(id: 1, name: "t", phase: .begun))),
                      WorkloadEvent(time: 2 * Self.s, body: .backgroundTask(BackgroundTaskEvent(id: 1, name: "t", phase: .ended))),
                      Self.state(4 * Self.s, .background, .suspended)]
        let samples = [Self.sample(1 * Self.s, [(100, 0, 0)]), Self.sample(2 * Self.s, [(100, 0, 40 * Self.ms)]),
                       Self.sample(3 * Self.s, [(100, 0, 46 * Self.ms)]), Self.sample(4 * Self.s, [(100, 0, 46 * Self.ms)])]
        let analysis = RunAnalysis(Self.record(events: events, samples: samples, end: 5 * Self.s))
        let work = try! XCTUnwrap(analysis.backgroundWorkOutsideTasks)
        XCTAssertEqual(work.cpuSeconds, 0.006, accuracy: 1e-12)
        XCTAssertEqual(work.backgroundSeconds, 2, accuracy: 1e-12)
        let audit = Audits.evaluate(analysis, metrics: MetricExtraction.metrics(of: analysis))["lifecycle.minimal-background-work"]
        XCTAssertEqual(try! XCTUnwrap(audit?.numericValue), 0.18, accuracy: 1e-9, "6 ms per 2 s = 0.18 s per minute")
    }

    func testBacktraceLinesParseWithAndWithoutASymbol() {
        XCTAssertEqual(BacktraceLine.parse("/opt/app/host(+0xe69)[0x556eabaece69]"),
                       BacktraceLine(path: "/opt/app/host", symbol: nil, offset: 0xe69, address: 0x556eabaece69))
        XCTAssertEqual(BacktraceLine.parse("/lib/x86_64-linux-gnu/libc.so.6(__libc_start_main+0x85)[0x7f6cd792f305]"),
                       BacktraceLine(path: "/lib/x86_64-linux-gnu/libc.so.6", symbol: "__libc_start_main", offset: 0x85, address: 0x7f6cd792f305))
        XCTAssertNil(BacktraceLine.parse("not a frame"))
    }

    func testHangsCarryTheStackCapturedInsideThem() {
        let hang = HandlerRecord(name: "input:hang", start: 1 * Self.s, end: 1 * Self.s + 400 * Self.ms)
        let short = HandlerRecord(name: "input:tap", start: 2 * Self.s, end: 2 * Self.s + 100 * Self.ms)
        let stack = HangStack(handler: "input:hang", capturedAt: 1 * Self.s + 251 * Self.ms,
                              frames: [StackFrame(module: "host", symbol: "blockMainThread", address: "0x1")])
        let stray = HangStack(handler: nil, capturedAt: 3 * Self.s, frames: [])
        let events = [WorkloadEvent(time: hang.end, body: .handler(hang)), WorkloadEvent(time: short.end, body: .handler(short)),
                      WorkloadEvent(time: stack.capturedAt, body: .hangStack(stack)), WorkloadEvent(time: stray.capturedAt, body: .hangStack(stray))]
        let analysis = RunAnalysis(Self.record(events: events))
        XCTAssertEqual(analysis.hangs, [RunAnalysis.Hang(handler: hang, stack: stack)])
        let timeline = Timeline(analysis)
        XCTAssertEqual(timeline.hangs, [HangMark(handler: "input:hang", start: 1, durationMs: 400, stack: ["blockMainThread (host)"])])
    }
}

extension LifecycleAnalysisTests {
    func testLifecycleEventsAndRecordFieldsRoundTrip() throws {
        let bodies: [WorkloadEvent.Body] = [
            .handlerBegan(HandlerBegin(name: "didEnterBackground", start: 5)),
            .backgroundTask(BackgroundTaskEvent(id: 2, name: "upload", phase: .expirationHandlerCalled)),
            .preservedState(PreservedStateSnapshot(moment: .background, values: ["a": "1"])),
            .hangStack(HangStack(handler: "input:hang", capturedAt: 9, frames: [StackFrame(module: "host", symbol: "f()", address: "0x10")])),
        ]
        for body in bodies {
            let event = WorkloadEvent(time: 42, body: body)
            XCTAssertEqual(try JSONDecoder().decode(WorkloadEvent.self, from: JSONEncoder().encode(event)), event)
        }
        let text = #"{"t":1,"type":"backgroundTask","backgroundTask":{"id":1,"name":"u","phase":"expiration-handler-called"}}"#
        XCTAssertEqual(try JSONDecoder().decode(WorkloadEvent.self, from: Data(text.utf8)).body,
                       .backgroundTask(BackgroundTaskEvent(id: 1, name: "u", phase: .expirationHandlerCalled)))
        // A handler record from before the waiting counters still decodes.
        let old = #"{"name":"x","start":1,"end":2}"#
        XCTAssertNil(try JSONDecoder().decode(HandlerRecord.self, from: Data(old.utf8)).voluntaryContextSwitches)
    }
}
