import XCTest
@testable import FrugalCore

/// Metrics and audits on hand-made run records, with exact expected numbers.
final class RunAnalysisTests: XCTestCase {
    static let ms: UInt64 = 1_000_000
    static let s: UInt64 = 1_000_000_000

    static func sample(_ time: UInt64, _ threads: [(Int32, Int)]) -> ProcessSample {
        ProcessSample(time: time, threads: threads.map {
            ThreadSample(tid: $0.0, name: "t", voluntaryContextSwitches: $0.1, involuntaryContextSwitches: 0, onCPUNanoseconds: 0, state: "S")
        })
    }

    /// Exec at 1 s (the run's zero); first ack 1.25 s later; a 1.5 s didFinishLaunching; a 10 s idle phase in which
    /// the main thread woke 20 times and a new thread 5 times; the run lasts 12 s.
    static func record(outcome: RunOutcome = .completed) -> RunRecord {
        let start = 1 * s
        let handlers = [
            HandlerRecord(name: "didFinishLaunching", start: start + 10 * ms, end: start + 1510 * ms),
            HandlerRecord(name: "input:tap", start: start + 1600 * ms, end: start + 1700 * ms),
            HandlerRecord(name: "timer:poll", start: start + 2 * s, end: start + 2 * s + 10 * ms),
        ]
        var events = handlers.map { WorkloadEvent(time: $0.end, body: .handler($0)) }
        events.append(WorkloadEvent(time: start + 1250 * ms, body: .ack(Ack(sequence: 1))))
        let idleStart = start + 2 * s, idleEnd = start + 12 * s
        let steps = [
            StepRecord(index: 0, step: .launch, start: start, end: start + 1250 * ms),
            StepRecord(index: 1, step: .wait(seconds: 10), start: idleStart, end: idleEnd, phaseStart: idleStart,
                       sampleAtStart: sample(idleStart, [(100, 4)]), sampleAtEnd: sample(idleEnd, [(100, 24), (101, 5)])),
        ]
        let usage = ResourceUsage(userSeconds: 1.5, systemSeconds: 0.25, voluntaryContextSwitches: 36,
                                  involuntaryContextSwitches: 2, maxResidentBytes: 1000, majorFaults: 0, minorFaults: 10)
        return RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: start, endTime: start + 12 * s, pid: 100,
                         steps: steps, events: events, samples: [steps[1].sampleAtEnd!], outcome: outcome,
                         outcomeDetail: nil, exitStatus: ExitStatus(code: 0), resourceUsage: usage)
    }

    func testMetricsAreExactAndSayTheirSource() {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record()))
        XCTAssertEqual(metrics[MetricName.cpuTimeSeconds]?.value, 1.75)
        XCTAssertEqual(metrics[MetricName.cpuWakeups]?.value, 36)
        XCTAssertEqual(metrics[MetricName.cpuWakeupsPerSecond]!.value!, 3, accuracy: 1e-12)
        XCTAssertEqual(metrics[MetricName.cpuIdleWakeupsPerSecond]!.value!, 2.5, accuracy: 1e-12)  // (20 + 5) / 10 s
        XCTAssertEqual(metrics[MetricName.mainThreadWakeups]?.value, 24)
        XCTAssertEqual(metrics[MetricName.lifecycleLaunchMs]!.value!, 1250, accuracy: 1e-9)
        XCTAssertEqual(metrics[MetricName.mainThreadLongestBlockMs]!.value!, 1500, accuracy: 1e-9)
        XCTAssertEqual(metrics[MetricName.mainThreadHangs]?.value, 1)
        XCTAssertEqual(metrics[MetricName.mainThreadBlockedSeconds]!.value!, 1.5, accuracy: 1e-9)  // 1450 + 50 ms
        XCTAssertEqual(metrics[MetricName.mainThreadBlockingMsPerMinute]!.value!, 1500, accuracy: 1e-6)  // 1500 ms in a 12 s run, counted as one minute
        for (name, metric) in metrics { XCTAssertFalse(metric.source.isEmpty, name) }
    }

    func testMainThreadWaitingNamesWhereTheHandlersCPUTimeCameFrom() {
        // Where PAPI cannot count, the app's runtime reads its threads' CPU time from getrusage.
        var record = Self.record()
        let start = record.startTime
        record.events = [WorkloadEvent(time: start + 200 * Self.ms, body: .handler(HandlerRecord(
            name: "input:tap", start: start + 100 * Self.ms, end: start + 200 * Self.ms, cpuNanoseconds: 30 * Self.ms,
            counterSource: "rusage:thread", voluntaryContextSwitches: 2, runQueueNanoseconds: 10 * Self.ms)))]
        let waiting = MetricExtraction.metrics(of: RunAnalysis(record))[MetricName.mainThreadWaitingMs]
        XCTAssertEqual(try XCTUnwrap(waiting?.value), 60, accuracy: 1e-9)  // 100 ms wall − 30 on the CPU − 10 waiting for it
        XCTAssertTrue(waiting?.source.contains("CPU time from rusage:thread") == true, waiting?.source ?? "")
        XCTAssertFalse(waiting?.source.contains("perf::") == true, "PAPI did not count this: \(waiting?.source ?? "")")
    }

    /// The guide has an app save in willTerminate ("You can use this method to save user data",
    /// with about 5 seconds): nobody can touch an app that is quitting, so that save is neither a
    /// hang nor a wait on the main thread. Seen: a good app's 785-byte save there (an atomic write
    /// and its fsync) took 538 ms beside a disk writer and failed both main-thread audits.
    func testWillTerminatesSaveIsNeitherAHangNorAWaitOnTheMainThread() throws {
        var record = Self.record()
        let start = record.startTime
        let tap = HandlerRecord(name: "input:tap", start: start + 3 * Self.s, end: start + 3 * Self.s + 100 * Self.ms, cpuNanoseconds: 30 * Self.ms,
                                counterSource: "rusage:thread", voluntaryContextSwitches: 2, runQueueNanoseconds: 10 * Self.ms)
        let quit = HandlerRecord(name: "willTerminate", start: start + 11 * Self.s, end: start + 11 * Self.s + 600 * Self.ms, cpuNanoseconds: 2 * Self.ms,
                                 counterSource: "rusage:thread", voluntaryContextSwitches: 6, runQueueNanoseconds: 0)
        let save = BlockingCall(kind: "file.write", detail: "preserved-state.json", callSite: "App.swift:63",
                                start: quit.start + 1 * Self.ms, end: quit.end - 1 * Self.ms, onMainThread: true)
        let before = ReportBuilder.runReport(record)
        record.events += [WorkloadEvent(time: tap.end, body: .handler(tap)), WorkloadEvent(time: quit.end, body: .handler(quit)),
                          WorkloadEvent(time: save.end, body: .blockingCall(save))]
        let report = ReportBuilder.runReport(record)
        // The tap's 60 ms (100 wall − 30 on the CPU − 10 waiting for it), not the save's 598 more.
        XCTAssertEqual(try XCTUnwrap(report.metrics[MetricName.mainThreadWaitingMs]?.value), 60, accuracy: 1e-9)
        XCTAssertTrue(report.metrics[MetricName.mainThreadWaitingMs]?.source.contains("but willTerminate") == true)
        let waiting = try XCTUnwrap(report.audits["main.no-waiting-on-main"])
        XCTAssertFalse(waiting.evidence.contains { $0.description.contains("preserved-state.json") }, "\(waiting.evidence)")
        XCTAssertTrue(waiting.evidence.contains { $0.description.hasPrefix("willTerminate: 598 ms waiting, not counted") }, "\(waiting.evidence)")
        // The 600 ms no input started is not a hang: the longest stretch is still the launch's.
        let blocks = try XCTUnwrap(report.audits["main.no-long-blocks"])
        XCTAssertEqual(blocks.numericValue, before.audits["main.no-long-blocks"]?.numericValue)
        XCTAssertFalse(blocks.evidence.contains { $0.description.contains("willTerminate") }, "\(blocks.evidence)")
        // Any other handler no input started is still one.
        var timer = record
        timer.events.append(WorkloadEvent(time: quit.end, body: .handler(HandlerRecord(name: "timer:save", start: quit.start, end: quit.end))))
        XCTAssertTrue(ReportBuilder.runReport(timer).audits["main.no-long-blocks"]?.evidence.contains { $0.description.contains("timer:save") } == true)
    }

    func testWhatWasNotMeasuredIsUnavailableNotZero() {
        var record = Self.record(outcome: .killedWatchdog)
        record.events = []
        record.steps = [record.steps[0]]
        record.resourceUsage = nil
        let metrics = MetricExtraction.metrics(of: RunAnalysis(record))
        for name in [MetricName.lifecycleLaunchMs, MetricName.cpuWakeups, MetricName.cpuIdleWakeupsPerSecond, MetricName.mainThreadLongestBlockMs] {
            XCTAssertNil(metrics[name]?.value, name)
            XCTAssertNotNil(metrics[name]?.unavailable, name)
        }
    }

    func testAuditsScoreTheRecord() {
        let report = ReportBuilder.runReport(Self.record())
        XCTAssertEqual(report.audits["power.avoid-polling"]!.score!, LogNormalScoring.score(2.5, p10: 0.1, median: 0.4), accuracy: 1e-12)
        XCTAssertEqual(report.audits["lifecycle.launch-time"]!.score!, LogNormalScoring.score(1250, p10: 400, median: 2000), accuracy: 1e-12)
        let blocks = report.audits["main.no-long-blocks"]!
        XCTAssertLessThan(blocks.score!, 0.5)
        XCTAssertEqual(blocks.evidence.count, 1, "one hang as evidence")
        XCTAssertEqual(blocks.evidence.first?.durationMs ?? 0, 1500, accuracy: 1e-9)
        XCTAssertTrue(blocks.evidence.first?.description.contains("didFinishLaunching") ?? false)
    }

    func testLaunchWatchdogKillScoresAtTheLimit() {
        var record = Self.record(outcome: .killedWatchdog)
        record.events = record.events.filter { if case .ack = $0.body { return false } else { return true } }
        let audit = ReportBuilder.runReport(record).audits["lifecycle.launch-time"]!
        XCTAssertEqual(audit.numericValue, 5000)
        XCTAssertLessThan(audit.score!, 0.5)
    }

    func testNoIdlePhaseMakesAvoidPollingNotApplicable() {
        var record = Self.record()
        record.steps = [record.steps[0]]
        let audit = ReportBuilder.runReport(record).audits["power.avoid-polling"]!
        XCTAssertNil(audit.score)
        XCTAssertEqual(audit.scoreDisplayMode, .notApplicable)
    }

    func testWakeupsCountNewThreadsAndIgnoreDeadOnes() {
        let before = Self.sample(0, [(1, 10), (2, 7)])
        let after = Self.sample(1, [(1, 13), (3, 4)])
        XCTAssertEqual(after.wakeups(since: before), 7)  // 3 on thread 1, 4 on new thread 3; thread 2 gone
    }

    func testAggregationTakesMediansAndCategoriesAverage() {
        var runs: [RunReport] = []
        for (repetition, launchMs) in [(1, 250.0), (2, 900.0), (3, 300.0)] {
            var record = Self.record()
            record.repetition = repetition
            record.events = record.events.map { event in
                guard case .ack = event.body else { return event }
                return WorkloadEvent(time: record.startTime + UInt64(launchMs * 1e6), body: event.body)
            }
            runs.append(ReportBuilder.runReport(record))
        }
        let result = ReportBuilder.aggregate(runs).first!
        let launch = result.audits["lifecycle.launch-time"]!
        XCTAssertEqual(launch.numericValue!, 300, accuracy: 1e-6)
        XCTAssertEqual(launch.values.compactMap { $0 }.map { $0.rounded() }, [250, 900, 300])
        XCTAssertEqual(launch.minValue!, 250, accuracy: 1e-6)
        XCTAssertEqual(launch.maxValue!, 900, accuracy: 1e-6)
        XCTAssertEqual(result.repetitions, 3)
        let power = result.categories["power"]!.score!
        XCTAssertEqual(power, result.audits["power.avoid-polling"]!.score!, accuracy: 1e-12, "one audit: the category is its score")
        // Overall: half the weakest audit, half the mean of the three categories that have a score.
        let categoryMean = ([result.categories["power"]!, result.categories["responsiveness"]!, result.categories["lifecycle"]!]
            .map { $0.score! }.reduce(0, +)) / 3
        let weakest = result.audits.values.compactMap(\.score).min()!
        XCTAssertEqual(result.score!, 0.5 * weakest + 0.5 * categoryMean, accuracy: 1e-12)
        XCTAssertEqual(SampleSummary.median([4, 1, 3, 2]), 2.5)
        XCTAssertNil(SampleSummary.median([]))
    }
}
