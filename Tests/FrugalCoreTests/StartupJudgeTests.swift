import XCTest
@testable import FrugalCore

/// ``StartupJudge``: a program's start-up ends at its main thread's first sustained interruptible
/// wait — asleep in two samples in a row without running between them.
final class StartupJudgeTests: XCTestCase {
    func state(_ letter: String, cpu: UInt64, switches: Int, wchan: String? = "do_sys_poll", syscall: String? = "7") -> ThreadWaitState {
        ThreadWaitState(state: letter, wchan: wchan, syscall: syscall, voluntaryContextSwitches: switches, involuntaryContextSwitches: 0,
                        onCPUNanoseconds: cpu)
    }

    func testTheFirstWaitWithNoRunBetweenSamplesEndsStartUp() {
        var judge = StartupJudge(start: 0)
        judge.observe(tid: 5, time: 10, state: state("R", cpu: 5, switches: 1))
        judge.observe(tid: 5, time: 20, state: state("S", cpu: 8, switches: 2))
        judge.observe(tid: 5, time: 30, state: state("S", cpu: 9, switches: 3)) // ran between: a short wait
        XCTAssertNil(judge.end)
        judge.observe(tid: 5, time: 130, state: state("S", cpu: 9, switches: 3))
        XCTAssertEqual(judge.end?.time, 30)
        XCTAssertEqual(judge.result.end, 30)
        XCTAssertTrue(judge.result.reason.contains("do_sys_poll"), judge.result.reason)
        judge.observe(tid: 5, time: 200, state: state("S", cpu: 9, switches: 3))
        XCTAssertEqual(judge.end?.time, 30, "the first one holds")
    }

    func testDiskWaitsChildWaitsAndANewThreadDoNotEndIt() {
        var judge = StartupJudge(start: 0)
        judge.observe(tid: 5, time: 10, state: state("D", cpu: 5, switches: 1))
        judge.observe(tid: 5, time: 20, state: state("D", cpu: 5, switches: 1))
        judge.observe(tid: 5, time: 30, state: state("S", cpu: 5, switches: 1, wchan: "do_wait", syscall: "61"))
        judge.observe(tid: 5, time: 40, state: state("S", cpu: 5, switches: 1, wchan: "do_wait", syscall: "61"))
        XCTAssertNil(judge.end, "a wrapper waiting for its child is not waiting for events")
        #if arch(x86_64)
        let futex = "202"
        #else
        let futex = "98"
        #endif
        judge.observe(tid: 5, time: 41, state: state("S", cpu: 5, switches: 1, wchan: "futex_wait_queue", syscall: futex))
        judge.observe(tid: 5, time: 42, state: state("S", cpu: 5, switches: 1, wchan: "futex_wait_queue", syscall: futex))
        XCTAssertNil(judge.end, "a main thread joining the worker that loads is not waiting for events")
        judge.observe(tid: 5, time: 50, state: state("S", cpu: 5, switches: 1))
        judge.observe(tid: 6, time: 60, state: state("S", cpu: 5, switches: 1))
        XCTAssertNil(judge.end, "a new thread's first sample starts over")
        XCTAssertNil(judge.result.end)
        XCTAssertTrue(judge.result.reason.contains("no sustained wait"), judge.result.reason)
    }

    func testOnlyABlackBoxsStartUpIsLeftOutOfIdleTime() {
        var record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: 1_000, endTime: 2_000_000_000, pid: 1,
                               steps: [], events: [], samples: [], outcome: .completed, outcomeDetail: nil, exitStatus: nil, resourceUsage: nil)
        record.outsideWatch = OutsideWatchFacts(hangs: [], longestBusyMs: 0, samples: 1, unreadable: [], intervalSeconds: 0.025,
                                                startups: [ProgramStartup(start: record.startTime, end: record.startTime + 500_000_000,
                                                                          wchan: "do_sys_poll", syscall: "7", reason: "test")])
        record.blackBox = true
        XCTAssertEqual(RunAnalysis(record).startupIntervals.count, 1)
        record.blackBox = false
        XCTAssertTrue(RunAnalysis(record).startupIntervals.isEmpty)
    }

    /// A hang inside a start-up that ended within the guide's 5 s is the program loading: shown in
    /// `main.no-long-blocks`' evidence, not counted. One after the start-up counts, and so does one
    /// inside a start-up that ran past the limit.
    func testHangsWhileStartingUpAreLaunchNotHangs() throws {
        let ms: UInt64 = 1_000_000
        func record(startupEnd: UInt64) -> RunRecord {
            var record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: 1_000, endTime: 1_000 + 9_000 * ms, pid: 1,
                                   steps: [], events: [], samples: [], outcome: .completed, outcomeDetail: nil, exitStatus: nil,
                                   resourceUsage: nil, blackBox: true)
            let loading = OutsideHang(start: 1_000 + 200 * ms, end: 1_000 + 992 * ms, kind: "uninterruptible",
                                      wchan: "folio_wait_bit_common", syscall: "-1")
            let later = OutsideHang(start: 1_000 + 7_000 * ms, end: 1_000 + 7_400 * ms, kind: "busy", wchan: nil, syscall: nil)
            record.outsideWatch = OutsideWatchFacts(hangs: [loading, later], longestBusyMs: 400, samples: 300, unreadable: [], intervalSeconds: 0.025,
                                                    startups: [ProgramStartup(start: 1_000, end: 1_000 + startupEnd,
                                                                              wchan: "do_epoll_wait", syscall: "232", reason: "test")])
            return record
        }
        let quick = RunAnalysis(record(startupEnd: 1_340 * ms))
        XCTAssertEqual(quick.programHangs.judged.map(\.kind), ["busy"])
        XCTAssertEqual(quick.programHangs.startingUp.map(\.kind), ["uninterruptible"])
        let metrics = MetricExtraction.metrics(of: quick)
        XCTAssertEqual(metrics[MetricName.mainThreadHangs]?.value, 1)
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.mainThreadLongestBlockMs]?.value), 400, accuracy: 1e-6, "the start-up's 792 ms is not the longest block")
        let audit = try XCTUnwrap(ReportBuilder.blackBoxAudits(quick, metrics: metrics)["main.no-long-blocks"])
        XCTAssertTrue(audit.evidence.contains { $0.description.hasPrefix("start-up, not a hang: uninterruptible: 792 ms") }, "\(audit.evidence)")
        XCTAssertEqual(Timeline.outsideHangMarks(quick).count, 1, "the report's hangs lane marks the counted hang only")

        let slow = RunAnalysis(record(startupEnd: 6_000 * ms))
        XCTAssertEqual(slow.programHangs.judged.count, 2, "a start-up past the guide's 5 s keeps its hangs")
        XCTAssertEqual(MetricExtraction.metrics(of: slow)[MetricName.mainThreadHangs]?.value, 2)
    }

    /// A main thread on the CPU from its spawn past the guide's 5 s never ended its launch: a hang
    /// under a scenario with events to answer, a batch job's work when the program is run to its end.
    func testNeverWaitingIsAHangUnlessTheProgramIsRunToItsEnd() {
        let s: UInt64 = 1_000_000_000
        var record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: 1_000, endTime: 1_000 + 7 * s, pid: 1,
                               steps: [StepRecord(index: 0, step: .launch, start: 1_000, end: 1_000)], events: [], samples: [],
                               outcome: .completed, outcomeDetail: nil, exitStatus: nil, resourceUsage: nil, blackBox: true)
        let spin = OutsideHang(start: 1_000, end: 1_000 + 6 * s, kind: OutsideHang.neverWaitedKind, wchan: nil, syscall: nil)
        record.outsideWatch = OutsideWatchFacts(hangs: [spin], longestBusyMs: 6_000, samples: 240, unreadable: [], intervalSeconds: 0.025,
                                                startups: [ProgramStartup(start: 1_000, end: nil, wchan: nil, syscall: nil, reason: "test")])
        XCTAssertTrue(RunAnalysis(record).programHangs.judged.isEmpty, "run to its end, it is the job's work")
        record.steps.append(StepRecord(index: 1, step: .wait(seconds: 6), start: 1_000, end: 1_000 + 6 * s))
        XCTAssertEqual(RunAnalysis(record).programHangs.judged.count, 1)
    }
}
