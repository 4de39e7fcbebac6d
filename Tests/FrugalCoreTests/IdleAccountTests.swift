import XCTest
@testable import FrugalCore

/// What counts as idle for power.avoid-polling, on a hand-made 10 s wait sampled every second.
final class IdleAccountTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000
    static let ms: UInt64 = 1_000_000

    /// A 10 s wait from 2 s; the thread's voluntary switches at each whole second after it.
    static func record(wakeupsBySecond: [Int], events: [WorkloadEvent]) -> RunRecord {
        var record = RunAnalysisTests.record()
        let start = record.startTime
        var total = 0
        let samples = (0...10).map { index -> ProcessSample in
            if index > 0 { total += wakeupsBySecond[index - 1] }
            return RunAnalysisTests.sample(start + UInt64(2 + index) * s, [(100, total)])
        }
        record.steps[1] = StepRecord(index: 1, step: .wait(seconds: 10), start: start + 2 * s, end: start + 12 * s, phaseStart: start + 2 * s,
                                     sampleAtStart: samples[0], sampleAtEnd: samples[10])
        record.samples = samples
        record.events += events
        return record
    }

    func testRequestsInFlightWritesAndFramesWhileActiveAreNotIdle() throws {
        let start = RunAnalysisTests.record().startTime
        func at(_ seconds: Double) -> UInt64 { start + UInt64(seconds * 1e9) }
        let request = NetworkRequestRecord(task: 1, method: "GET", target: "/feed", operation: "GET /feed", start: at(2.5), end: at(4.5),
                                           outcome: .completed, status: 200, error: nil, bytesSent: 100, bytesReceived: 100,
                                           reusedConnection: false, callSite: "App.swift:1")
        let write = FileWrite(path: "Documents/a", dataClass: .critical, excludedFromBackup: false, operation: .replace, offset: 0, length: 10,
                              synced: true, existed: false, diff: nil, sizeAfter: 10, thread: 1, onMainThread: false,
                              start: at(6.2), end: at(6.3), callSite: "App.swift:2")
        let events = [
            WorkloadEvent(time: at(1.3), body: .stateChanged(StateChange(from: .inactive, to: .active))),
            WorkloadEvent(time: at(4.5), body: .networkRequest(request)),
            WorkloadEvent(time: at(6.3), body: .fileWrite(write)),
            WorkloadEvent(time: at(8.25), body: .handler(HandlerRecord(name: "frame:display", start: at(8.2), end: at(8.25)))),
        ]
        // Slices of the wait (run seconds): 2–3, 3–4, ..., 11–12. Busy: the request (2.5–4.5 s) in
        // 2–3, 3–4, 4–5; the write in 6–7; the frame in 8–9. Idle: the other five, with one wakeup.
        let record = Self.record(wakeupsBySecond: [10, 10, 10, 0, 10, 0, 10, 0, 0, 1], events: events)
        let analysis = RunAnalysis(record)
        let account = try XCTUnwrap(analysis.idleAccounts.first)
        XCTAssertEqual(account.idleSeconds, 5, accuracy: 1e-9)
        XCTAssertEqual(account.idleWakeups, 1)
        XCTAssertEqual(account.excludedSeconds[.request] ?? 0, 3, accuracy: 1e-9)
        XCTAssertEqual(account.excludedSeconds[.fileIO] ?? 0, 1, accuracy: 1e-9)
        XCTAssertEqual(account.excludedSeconds[.frames] ?? 0, 1, accuracy: 1e-9)
        let metrics = MetricExtraction.metrics(of: analysis)
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.cpuIdleWakeupsPerSecond]?.value), 0.2, accuracy: 1e-12)
    }

    /// A retry with backoff: the timer that issues the request wakes the app just before a
    /// sample and the request starts just after it; the failure is delivered to the main thread
    /// just after the request's end falls in the next slice. Both wakeups are the request's.
    /// A 1 Hz poller suspended for half of its 10 s wait reads its rate while it ran (1/s), not
    /// half of it: suspended time is neither idle nor in use.
    func testSuspendedTimeIsNeitherIdleNorActive() throws {
        let start = RunAnalysisTests.record().startTime
        func at(_ seconds: Double) -> UInt64 { start + UInt64(seconds * 1e9) }
        let events = [
            WorkloadEvent(time: at(1.3), body: .stateChanged(StateChange(from: .inactive, to: .background))),
            WorkloadEvent(time: at(7), body: .stateChanged(StateChange(from: .background, to: .suspended))),
        ]
        // Awake 2–7 s with a wakeup a second, frozen 7–12 s with none.
        let record = Self.record(wakeupsBySecond: [1, 1, 1, 1, 1, 0, 0, 0, 0, 0], events: events)
        let account = try XCTUnwrap(RunAnalysis(record).idleAccounts.first)
        XCTAssertEqual(account.idleSeconds, 5, accuracy: 1e-9)
        XCTAssertEqual(account.excludedSeconds[.suspended] ?? 0, 5, accuracy: 1e-9)
        XCTAssertEqual(Double(account.idleWakeups) / account.idleSeconds, 1, accuracy: 1e-9)
    }

    /// A save outside FrugalKit (a detached task's fsyncs) is seen in write_bytes: its slices are
    /// file I/O, not polling; the same wakeups with nothing written stay idle.
    func testWritingToStorageOutsideFrugalKitIsNotIdle() throws {
        var record = Self.record(wakeupsBySecond: [0, 0, 20, 0, 0, 0, 0, 0, 0, 0], events: [])
        let idle = try XCTUnwrap(RunAnalysis(record).idleAccounts.first)
        XCTAssertEqual(idle.idleWakeups, 20, "nothing written: the wakeups are idle ones")
        for index in record.samples.indices { record.samples[index].physicalBytesWritten = index >= 3 ? 81_920 : 0 }
        let account = try XCTUnwrap(RunAnalysis(record).idleAccounts.first)
        XCTAssertEqual(account.idleWakeups, 0)
        XCTAssertEqual(account.excludedSeconds[.fileIO] ?? 0, 1, accuracy: 1e-9)
    }

    func testTheHandlersThatIssueARequestAndDeliverItsResultAreTheRequests() throws {
        let start = RunAnalysisTests.record().startTime
        func at(_ seconds: Double) -> UInt64 { start + UInt64(seconds * 1e9) }
        let request = NetworkRequestRecord(task: 1, method: "POST", target: "/upload/a", operation: "POST /upload/a", start: at(5.0005), end: at(5.002),
                                           outcome: .failed, status: nil, error: "offline", bytesSent: 0, bytesReceived: 0,
                                           reusedConnection: false, callSite: "App.swift:1")
        let events = [
            WorkloadEvent(time: at(1.3), body: .stateChanged(StateChange(from: .inactive, to: .active))),
            // The retry timer fires at 4.999 s (slice 4–5) and starts the request at 5.0005 s (slice 5–6).
            WorkloadEvent(time: at(5.001), body: .handler(HandlerRecord(name: "timer:retry", start: at(4.999), end: at(5.001)))),
            WorkloadEvent(time: at(5.002), body: .networkRequest(request)),
            // The failure is delivered at 6.0005 s (slice 6–7).
            WorkloadEvent(time: at(6.001), body: .handler(HandlerRecord(name: "posted:network:POST /upload/a", start: at(6.0005), end: at(6.001)))),
            // An unrelated timer, issuing nothing, stays idle: this is what polling looks like.
            WorkloadEvent(time: at(9.5), body: .handler(HandlerRecord(name: "timer:poll", start: at(9.4), end: at(9.5)))),
        ]
        let record = Self.record(wakeupsBySecond: [0, 0, 1, 1, 1, 0, 0, 1, 0, 0], events: events)
        let account = try XCTUnwrap(RunAnalysis(record).idleAccounts.first)
        XCTAssertEqual(account.excludedSeconds[.request] ?? 0, 3, accuracy: 1e-9, "slices 4–5, 5–6 and 6–7 are the request's")
        XCTAssertEqual(account.idleSeconds, 7, accuracy: 1e-9)
        XCTAssertEqual(account.idleWakeups, 1, "the poll timer's wakeup is still idle")
    }

    /// Any client's request (URLSession, curl: the wire's record, no FrugalKit event) is the
    /// app's work until its result is handed over: the hand-off's wakeups, in the slice after
    /// the one holding the last byte, are the request's; a timer later in the wait is not.
    func testAWireRequestsResultHandOffIsTheRequests() throws {
        var record = Self.record(wakeupsBySecond: [0, 0, 1, 2, 0, 0, 0, 1, 0, 0], events: [])
        var network = NetworkRecord(proxyAddress: "127.0.0.1:1", radio: .lte, trace: ProxyTrace(chunks: []), origin: OriginStatistics(),
                                    conditions: [NetworkConditionChange(time: 0, profile: .lte)], faults: [])
        // On the wire from 4.5 s to 4.95 s (seconds since exec): slice 4–5; its result is handled
        // at about 5.1 s, in slice 5–6.
        network.requests = [OtherHandAuditTests.wire("/forecast", 4.5, 4.95)]
        record.network = network
        let account = try XCTUnwrap(RunAnalysis(record).idleAccounts.first)
        XCTAssertEqual(account.excludedSeconds[.request] ?? 0, 2, accuracy: 1e-9, "slices 4–5 and 5–6 are the request's")
        XCTAssertEqual(account.idleSeconds, 8, accuracy: 1e-9)
        XCTAssertEqual(account.idleWakeups, 1, "the timer at 9–10 s is still idle")
        // Without the hand-off the slice 5–6 and its two wakeups would be idle: the bound is what decides.
        XCTAssertGreaterThan(RunAnalysis.responseHandOffSeconds, 0.05)
    }

    /// A kept-alive connection's close at exit sends a few bytes (TLS's close_notify): they are
    /// the close, not an exchange, so the connection is not in flight from its last request to
    /// its close, and a poller's wakeups in that quiet stretch are idle. An exchange that ends
    /// right at the close (no quiet stretch before it) is still in flight to its last byte.
    func testAConnectionsClosingBytesDoNotKeepItInFlight() throws {
        var record = Self.record(wakeupsBySecond: [0, 0, 1, 1, 1, 1, 1, 1, 1, 1], events: [])
        func network(_ chunks: [TrafficChunk], close: Double) -> NetworkRecord {
            NetworkRecord(proxyAddress: "127.0.0.1:1", radio: .lte,
                          trace: ProxyTrace(chunks: chunks, events: [ConnectionEvent(connection: 1, kind: .open, time: 2.5),
                                                                     ConnectionEvent(connection: 1, kind: .close, time: close)]),
                          origin: OriginStatistics(), conditions: [NetworkConditionChange(time: 0, profile: .lte)], faults: [])
        }
        // An exchange from 2.5 s to 3.5 s; the close's 24 bytes at 11.9 s, just before the close.
        record.network = network([TrafficChunk(connection: 1, direction: .uplink, time: 2.6, bytes: 245),
                                  TrafficChunk(connection: 1, direction: .downlink, time: 3.5, bytes: 2285),
                                  TrafficChunk(connection: 1, direction: .downlink, time: 11.9, bytes: 24)], close: 11.95)
        var account = try XCTUnwrap(RunAnalysis(record).idleAccounts.first)
        XCTAssertEqual(account.excludedSeconds[.request] ?? 0, 3, accuracy: 1e-9, "slices 2–3 and 3–4 (the exchange) and 11–12 (the close)")
        XCTAssertEqual(account.idleWakeups, 7, "the poller's wakeups from 4 s to 11 s are idle")
        // Bytes still moving up to the close: one exchange, in flight throughout.
        record.network = network((0..<19).map { TrafficChunk(connection: 1, direction: .downlink, time: 2.6 + Double($0) * 0.5, bytes: 1000) }, close: 11.95)
        account = try XCTUnwrap(RunAnalysis(record).idleAccounts.first)
        XCTAssertEqual(account.idleSeconds, 0, accuracy: 1e-9)
    }

    /// power.avoid-polling states a rate of zero over a second or more of idle time, but a
    /// rate of one wakeup or more under 2.5 s (one wakeup in that time is the poor control
    /// point) only when the count is beyond chance at that rate: two wakeups in 2 s of idle time
    /// could be incidental, ten are a poller's.
    func testAWakeupInLessIdleTimeThanTheDecisiveFloorIsNotApplicableAndNoneIsARateOfZero() throws {
        let start = RunAnalysisTests.record().startTime
        func at(_ seconds: Double) -> UInt64 { start + UInt64(seconds * 1e9) }
        // A write from 3.1 s to 10.9 s leaves the slices 2–3 and 11–12 idle: 2 s.
        let write = FileWrite(path: "Documents/a", dataClass: .critical, excludedFromBackup: false, operation: .replace, offset: 0, length: 10,
                              synced: true, existed: false, diff: nil, sizeAfter: 10, thread: 1, onMainThread: false,
                              start: at(3.1), end: at(10.9), callSite: "App.swift:2")
        let events = [WorkloadEvent(time: at(10.9), body: .fileWrite(write))]
        let noisy = try OtherHandAuditTests.audit(Self.record(wakeupsBySecond: [1, 0, 0, 0, 0, 0, 0, 0, 0, 1], events: events), "power.avoid-polling")
        XCTAssertNil(noisy.score, noisy.displayValue)
        XCTAssertTrue(noisy.explanation?.contains("2 wakeups in 2 s of idle time") ?? false, noisy.explanation ?? "")
        let quiet = try OtherHandAuditTests.audit(Self.record(wakeupsBySecond: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], events: events), "power.avoid-polling")
        XCTAssertEqual(quiet.score, 1, quiet.explanation ?? quiet.displayValue)
        // Over the whole 10 s, the same two wakeups are a rate (0.2/s).
        let long = try OtherHandAuditTests.audit(Self.record(wakeupsBySecond: [1, 0, 0, 0, 0, 0, 0, 0, 0, 1], events: []), "power.avoid-polling")
        XCTAssertEqual(try XCTUnwrap(long.numericValue), 0.2, accuracy: 1e-9)
        XCTAssertEqual(Audits.decisiveIdleSeconds, 2.5, accuracy: 1e-9, "one wakeup per 2.5 s is the rule's poor control point")
        // Ten in the same 2 s are more than a rate at the poor point makes by chance: a poller's.
        let poller = try OtherHandAuditTests.audit(Self.record(wakeupsBySecond: [5, 0, 0, 0, 0, 0, 0, 0, 0, 5], events: events), "power.avoid-polling")
        XCTAssertEqual(try XCTUnwrap(poller.numericValue, poller.explanation ?? ""), 5, accuracy: 1e-9)
        XCTAssertFalse(Audits.beyondChance(2, seconds: 1.12), "the weather app's two in 1.1 s: 7.5 % at 0.4/s")
        XCTAssertTrue(Audits.beyondChance(3, seconds: 1.12), "three: 1.1 %")
    }

    func testFramesInTheBackgroundAreNotUseAndAWaitAllBusyIsNotApplicable() throws {
        let start = RunAnalysisTests.record().startTime
        func at(_ seconds: Double) -> UInt64 { start + UInt64(seconds * 1e9) }
        // Frames every 0.5 s through the wait, in the background: still idle time, their wakeups count.
        var events = [WorkloadEvent(time: at(1.3), body: .stateChanged(StateChange(from: .active, to: .background)))]
        for index in 0..<20 {
            let time = at(2.1 + Double(index) * 0.5)
            events.append(WorkloadEvent(time: time, body: .handler(HandlerRecord(name: "frame:display", start: time, end: time + Self.ms))))
        }
        let background = RunAnalysis(Self.record(wakeupsBySecond: Array(repeating: 2, count: 10), events: events))
        XCTAssertEqual(try XCTUnwrap(background.idleAccounts.first).idleSeconds, 10, accuracy: 1e-9)
        let audit = Audits.evaluate(background, metrics: MetricExtraction.metrics(of: background))["power.avoid-polling"]
        XCTAssertEqual(try XCTUnwrap(audit?.numericValue), 2, accuracy: 1e-12)

        // A request in flight through the whole wait: no idle time, so not applicable, with the reason.
        let request = NetworkRequestRecord(task: 1, method: "GET", target: "/slow", operation: "GET /slow", start: at(1.9), end: at(12.5),
                                           outcome: .completed, status: 200, error: nil, bytesSent: 1, bytesReceived: 1,
                                           reusedConnection: false, callSite: "App.swift:1")
        let busy = RunAnalysis(Self.record(wakeupsBySecond: Array(repeating: 3, count: 10),
                                           events: [WorkloadEvent(time: at(12.5), body: .networkRequest(request))]))
        let notApplicable = Audits.evaluate(busy, metrics: MetricExtraction.metrics(of: busy))["power.avoid-polling"]
        XCTAssertEqual(notApplicable?.scoreDisplayMode, .notApplicable)
        XCTAssertTrue(notApplicable?.explanation?.contains("requests in flight") ?? false, notApplicable?.explanation ?? "")
    }

    /// A memory warning the harness relays from the kernel's pressure event can arrive a few
    /// milliseconds after the `pressure` step has ended, inside the wait that follows (seen in
    /// gallery.hoards: its handler started 3–8 ms into the wait in most runs, before it in the
    /// others). Answering it is the harness's event, not polling; a timer in the same wait is.
    func testAnsweringAMemoryWarningIsNotIdleButATimerBesideItIs() throws {
        let start = RunAnalysisTests.record().startTime
        func at(_ seconds: Double) -> UInt64 { start + UInt64(seconds * 1e9) }
        let warning = MemoryEvent(kind: .warningHandled, level: .critical, handlerStart: at(2.007), handlerEnd: at(2.0078))
        let events = [
            WorkloadEvent(time: at(1.3), body: .stateChanged(StateChange(from: .inactive, to: .active))),
            WorkloadEvent(time: at(2.0078), body: .handler(HandlerRecord(name: "memoryWarning:critical", start: at(2.007), end: at(2.0078)))),
            WorkloadEvent(time: at(2.0078), body: .memory(warning)),
            WorkloadEvent(time: at(9.5), body: .handler(HandlerRecord(name: "timer:poll", start: at(9.4), end: at(9.5)))),
        ]
        let analysis = RunAnalysis(Self.record(wakeupsBySecond: [1, 0, 0, 0, 0, 0, 0, 1, 0, 0], events: events))
        let account = try XCTUnwrap(analysis.idleAccounts.first)
        XCTAssertEqual(account.excludedSeconds[.memoryWarning] ?? 0, 1, accuracy: 1e-9, "slice 2–3 answered the warning")
        XCTAssertEqual(account.idleSeconds, 9, accuracy: 1e-9)
        XCTAssertEqual(account.idleWakeups, 1, "the poll timer's wakeup is still idle")
        let audit = Audits.evaluate(analysis, metrics: MetricExtraction.metrics(of: analysis))["power.avoid-polling"]
        XCTAssertEqual(try XCTUnwrap(audit?.numericValue), 1.0 / 9, accuracy: 1e-12)
        XCTAssertTrue(audit?.evidence.contains { $0.description.contains("answering a memory warning") } ?? false)

        // Without the memory event (a handler by that name alone proves nothing), the slice is idle.
        let unmarked = RunAnalysis(Self.record(wakeupsBySecond: [1, 0, 0, 0, 0, 0, 0, 1, 0, 0], events: Array(events.dropLast(2)) + [events[3]]))
        XCTAssertEqual(try XCTUnwrap(unmarked.idleAccounts.first).idleWakeups, 2)
    }
}
