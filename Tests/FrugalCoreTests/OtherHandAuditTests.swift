import XCTest
@testable import FrugalCore

/// Issue 30: verdicts that hold on apps nobody here wrote. Each test is a pattern an app written
/// elsewhere showed, on a hand-made record, with the number worked out by hand.
final class OtherHandAuditTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000
    static let ms: UInt64 = 1_000_000
    static let mib = 1 << 20
    static let start: UInt64 = 10 * s

    // MARK: main.no-long-blocks

    /// A run of `seconds` with `taps` input steps 2 s apart from 1 s, each answered by `blocks`
    /// handlers of `blockMs`, back to back 1 ms apart (a main-queue block that queues the next).
    static func tapRecord(taps: Int, blocks: Int, blockMs: UInt64, seconds: UInt64 = 12, runQueueMs: UInt64? = nil) -> RunRecord {
        var steps = [StepRecord(index: 0, step: .launch, start: start, end: start + 500 * ms)]
        var events: [WorkloadEvent] = []
        for tap in 0..<taps {
            let at = start + UInt64(1 + 2 * tap) * s
            steps.append(StepRecord(index: steps.count, step: .input(kind: "open"), start: at, end: at + 2 * ms))
            var t = at + 1 * ms
            for block in 0..<blocks {
                let name = block == 0 ? "input:open" : "main-queue"
                let handler = HandlerRecord(name: name, start: t, end: t + blockMs * ms, runQueueNanoseconds: runQueueMs.map { $0 * ms })
                events.append(WorkloadEvent(time: handler.end, body: .handler(handler)))
                t = handler.end + 1 * ms
            }
        }
        return RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: start, endTime: start + seconds * s, pid: 1,
                         steps: steps, events: events, samples: [], outcome: .completed, outcomeDetail: nil,
                         exitStatus: ExitStatus(code: 0), resourceUsage: nil)
    }

    static func audit(_ record: RunRecord, _ id: String) throws -> AuditResult {
        let analysis = RunAnalysis(record)
        return try XCTUnwrap(Audits.evaluate(analysis, metrics: MetricExtraction.metrics(of: analysis))[id], id)
    }

    func testWorkSplitIntoSeveralBlocksPerTapIsOneResponse() throws {
        // Four taps, each four 33 ms blocks 1 ms apart: 132 ms busy per tap, no block near 50 ms.
        let audit = try Self.audit(Self.tapRecord(taps: 4, blocks: 4, blockMs: 33), "main.no-long-blocks")
        XCTAssertEqual(try XCTUnwrap(audit.numericValue), 132, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(audit.score), 0.5, audit.displayValue)
        XCTAssertEqual(audit.evidence.first?.description.contains("4 handlers"), true, audit.evidence.first?.description ?? "")
    }

    func testOneBlockPerTapIsNotDilutedByALongerScenario() throws {
        // One 130 ms block per tap: failing in a 12 s run and in a 10-minute one alike.
        let short = try Self.audit(Self.tapRecord(taps: 4, blocks: 1, blockMs: 130), "main.no-long-blocks")
        let long = try Self.audit(Self.tapRecord(taps: 4, blocks: 1, blockMs: 130, seconds: 600), "main.no-long-blocks")
        XCTAssertLessThan(try XCTUnwrap(short.score), 0.5, short.displayValue)
        XCTAssertEqual(short.score, long.score)
    }

    func testTwentyMillisecondsPerTapPasses() throws {
        let audit = try Self.audit(Self.tapRecord(taps: 4, blocks: 1, blockMs: 20), "main.no-long-blocks")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(audit.score), 0.9, audit.displayValue)
    }

    func testTimeWaitingForACPUIsTheMachinesNotTheApps() throws {
        // 120 ms handlers of which 90 ms runnable but not running (another process had the CPU).
        let audit = try Self.audit(Self.tapRecord(taps: 2, blocks: 1, blockMs: 120, runQueueMs: 90), "main.no-long-blocks")
        XCTAssertEqual(try XCTUnwrap(audit.numericValue), 30, accuracy: 1e-9)
    }

    func testAHangNoInputStartedStillCounts() throws {
        var record = Self.tapRecord(taps: 0, blocks: 0, blockMs: 0)
        let launch = HandlerRecord(name: "didFinishLaunching", start: Self.start + 10 * Self.ms, end: Self.start + 1510 * Self.ms)
        let timer = HandlerRecord(name: "timer:tick", start: Self.start + 3 * Self.s, end: Self.start + 3 * Self.s + 80 * Self.ms)
        record.events = [launch, timer].map { WorkloadEvent(time: $0.end, body: .handler($0)) }
        let audit = try Self.audit(record, "main.no-long-blocks")
        // The 1.5 s launch is a hang; the 80 ms timer no input waited for is not judged.
        XCTAssertEqual(try XCTUnwrap(audit.numericValue), 1500, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(audit.score), 0.5)
    }

    // MARK: memory footprint

    static func footprint(_ mib: Int, file: Int = 0) -> MemoryBreakdown {
        MemoryBreakdown(anonymousBytes: mib << 20, fileBytes: file << 20, lazyFreeBytes: 0)
    }

    /// Launch (ack at 0.4 s) with a 10 MiB footprint, then 90 MiB held in a plain dictionary; a
    /// warning at 3 s answered by a handler with nothing in FrugalKit's tools (an empty ledger),
    /// leaving `after` MiB 1 s later.
    static func dictionaryWarning(after: Int) -> RunRecord {
        let sample = { (time: UInt64, mib: Int) in ProcessSample(time: time, threads: [], memory: footprint(mib)) }
        let delivery = WarningDelivery(sequence: 1, level: .warning, origin: "scenario", time: start + 3 * s,
                                       atDelivery: footprint(90), after100ms: footprint(after), after1s: footprint(after))
        let handled = MemoryEvent(kind: .warningHandled, level: .warning, handlerStart: start + 3 * s + 1 * ms,
                                  handlerEnd: start + 3 * s + 5 * ms, sequence: 1, before: MemoryLedger(), after: MemoryLedger())
        var record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: start, endTime: start + 5 * s, pid: 1,
                               steps: [StepRecord(index: 0, step: .memoryWarning(level: .warning), start: start + 3 * s, end: start + 4 * s)],
                               events: [WorkloadEvent(time: start + 400 * ms, body: .ack(Ack(sequence: 1))),
                                        WorkloadEvent(time: start + 3 * s + 5 * ms, body: .memory(handled))],
                               samples: [sample(start + 600 * ms, 10), sample(start + 2 * s, 90)],
                               outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        record.memory = MemoryRunFacts(deliveries: [delivery])
        return record
    }

    func testAnAppIgnoringWarningsWithAPlainDictionaryFails() throws {
        let ignores = try Self.audit(Self.dictionaryWarning(after: 90), "memory.respond-to-warnings")
        // 80 MiB gained since launch, all of it still held.
        XCTAssertEqual(ignores.numericValue, 1)
        XCTAssertLessThan(try XCTUnwrap(ignores.score), 0.5, ignores.displayValue)
        let empties = try Self.audit(Self.dictionaryWarning(after: 12), "memory.respond-to-warnings")
        // 2 of the 80 MiB gained still held: 0.025.
        XCTAssertEqual(try XCTUnwrap(empties.numericValue), 2.0 / 80, accuracy: 1e-12)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(empties.score), 0.9)
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.dictionaryWarning(after: 90)))
        XCTAssertEqual(metrics[MetricName.memoryWarningRetainedFraction]?.value, 1)
        XCTAssertEqual(metrics[MetricName.memoryWarningRetainedFraction]?.source, MetricExtraction.MemorySource.footprint)
    }

    func testFileBackedPagesAreNotTheFootprint() throws {
        // Before the background: 10 MiB anonymous and 40 MiB of a mapped file (clean, the
        // system's to drop); kept in the background. The footprint gained nothing: little to free.
        var record = RunAnalysisTests.record()
        let t = record.startTime
        record.events.append(WorkloadEvent(time: t + 2 * Self.s, body: .stateChanged(StateChange(from: .inactive, to: .background))))
        record.samples = [ProcessSample(time: t + 1300 * Self.ms, threads: [], memory: Self.footprint(10)),
                          ProcessSample(time: t + 1800 * Self.ms, threads: [], memory: Self.footprint(10, file: 40)),
                          ProcessSample(time: t + 4 * Self.s, threads: [], memory: Self.footprint(10, file: 40))]
        let audit = try Self.audit(record, "memory.free-on-background")
        XCTAssertEqual(audit.scoreDisplayMode, .notApplicable, audit.displayValue)
        XCTAssertTrue(audit.explanation?.contains("little to free") ?? false, audit.explanation ?? "")
    }

    // MARK: network

    static func wire(_ path: String, _ start: Double, _ end: Double, up: Int = 200, down: Int = 800, host: String = "api.example") -> WireRequest {
        WireRequest(originConnection: 1, reusedConnection: true, method: "GET", host: host, path: path, query: nil, status: 200,
                    source: .synthetic, requestBodyBytes: up, responseBodyBytes: down, responseDecodedBodyBytes: down,
                    contentEncoding: nil, acceptEncoding: nil, uplinkOffset: 0, downlinkOffset: 0, downlinkEndOffset: 1,
                    start: start, firstByte: end, end: end, timesFromProxy: true)
    }

    static func networkRecord(_ requests: [WireRequest], inputs: [Double] = [], chunks: [TrafficChunk]? = nil) -> RunRecord {
        let chunks = chunks ?? requests.map { TrafficChunk(connection: 1, direction: .downlink, time: $0.start, bytes: $0.requestBodyBytes + $0.responseBodyBytes) }
        var network = NetworkRecord(proxyAddress: "127.0.0.1:1", radio: .lte, trace: ProxyTrace(chunks: chunks), origin: OriginStatistics(),
                                    conditions: [NetworkConditionChange(time: 0, profile: .lte)], faults: [])
        network.requests = requests
        let z = NetworkAuditTests.zero
        let steps = inputs.enumerated().map { index, time in
            StepRecord(index: index, step: .input(kind: "tap"), start: NetworkAuditTests.ns(time), end: NetworkAuditTests.ns(time) + ms)
        }
        return RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: z, endTime: NetworkAuditTests.ns(30), pid: 1, steps: steps,
                         events: [], samples: [], outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0),
                         resourceUsage: nil, network: network)
    }

    func testRequestsOneAfterAnotherForOneListAreChatty() throws {
        // 40 small GETs to one host, each after the last (50 ms each), after one tap.
        let requests = (0..<40).map { Self.wire("/item/\($0)", 2 + Double($0) * 0.05, 2.04 + Double($0) * 0.05) }
        let audit = try Self.audit(Self.networkRecord(requests, inputs: [1.9]), "network.avoid-chatty-protocols")
        XCTAssertEqual(audit.numericValue, 39)
        XCTAssertLessThan(try XCTUnwrap(audit.score), 0.5)
    }

    func testOneBatchAndRequestsTheUserAskedForSeparatelyAreNotChatty() throws {
        // A launch fetch, then one 60 KB batch POST 2 s after the edits (coalesced), then three
        // fetches each after its own tap: nothing could have been one request.
        var requests = [Self.wire("/feed", 0.5, 0.6), Self.wire("/batch", 5, 5.4, up: 60_000, down: 100)]
        requests += [Self.wire("/item/1", 8.1, 8.2), Self.wire("/item/2", 9.1, 9.2), Self.wire("/item/3", 10.1, 10.2)]
        let audit = try Self.audit(Self.networkRecord(requests, inputs: [8, 9, 10]), "network.avoid-chatty-protocols")
        XCTAssertEqual(audit.numericValue, 0)
        XCTAssertEqual(audit.score, 1)
    }

    func testWavesOfRequestsEnqueuedTogetherAreNotChatty() throws {
        // 16 small POSTs enqueued at once, worked through 6 connections: waves of 6, 6 and 4.
        var requests: [WireRequest] = []
        for (wave, size) in [6, 6, 4].enumerated() {
            for index in 0..<size {
                let start = 1 + Double(wave) * 0.1 + Double(index) * 0.001
                requests.append(Self.wire("/upload/\(wave)-\(index)", start, 1.09 + Double(wave) * 0.1))
            }
        }
        let audit = try Self.audit(Self.networkRecord(requests), "network.avoid-chatty-protocols")
        XCTAssertEqual(audit.numericValue, 0, audit.evidence.first?.description ?? "")
        XCTAssertEqual(audit.score, 1)
        XCTAssertEqual(ChattyExchange.group(requests, prompts: []).first?.waveSizes, [6, 6, 4])
    }

    func testAnInputArrivingAtTheEndOfALongLaunchDoesNotHideIt() throws {
        // A 1.5 s didFinishLaunching, then an input the harness sent 1 ms before it returned.
        var record = Self.tapRecord(taps: 0, blocks: 0, blockMs: 0)
        let launch = HandlerRecord(name: "didFinishLaunching", start: Self.start + 10 * Self.ms, end: Self.start + 1510 * Self.ms)
        let tap = HandlerRecord(name: "input:tap", start: Self.start + 1511 * Self.ms, end: Self.start + 1512 * Self.ms)
        record.events = [launch, tap].map { WorkloadEvent(time: $0.end, body: .handler($0)) }
        record.steps.append(StepRecord(index: 1, step: .input(kind: "tap"), start: Self.start + 1509 * Self.ms, end: Self.start + 1512 * Self.ms))
        let audit = try Self.audit(record, "main.no-long-blocks")
        XCTAssertEqual(try XCTUnwrap(audit.numericValue), 1500, accuracy: 1e-9)
    }

    func testAWatchdogKillInsideALaunchHandlerIsAHang() throws {
        // The app began didFinishLaunching at 0.1 s and was killed at 5.2 s, still inside it.
        var record = Self.tapRecord(taps: 0, blocks: 0, blockMs: 0, seconds: 0)
        record.endTime = Self.start + 5200 * Self.ms
        record.outcome = .killedWatchdog
        record.events = [WorkloadEvent(time: Self.start + 100 * Self.ms,
                                       body: .handlerBegan(HandlerBegin(name: "didFinishLaunching", start: Self.start + 100 * Self.ms)))]
        let audit = try Self.audit(record, "main.no-long-blocks")
        XCTAssertEqual(try XCTUnwrap(audit.numericValue), 5100, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(audit.score), 0.5)
    }

    func testARetryAfterAFailureIsNotChat() throws {
        // Two notes uploaded together; the first attempt of a third was reset, and FrugalKit's
        // client retried it 0.3 s later: a single-request wave, but a retry, not a round trip
        // the protocol asked for.
        let requests = [Self.wire("/upload/a", 1, 1.1), Self.wire("/upload/b", 1.001, 1.1), Self.wire("/upload/c", 1.4, 1.5)]
        var record = Self.networkRecord(requests)
        let ns = NetworkAuditTests.ns
        for (attempt, start, end) in [(1, 0.99, 1.05), (2, 1.39, 1.51)] {
            let outcome: NetworkRequestRecord.Outcome = attempt == 1 ? .failed : .completed
            record.events.append(WorkloadEvent(time: ns(end), body: .networkRequest(NetworkRequestRecord(
                task: attempt, method: "GET", target: "/upload/c", operation: "c", start: ns(start), end: ns(end), outcome: outcome,
                status: attempt == 1 ? nil : 200, error: attempt == 1 ? "reset" : nil, bytesSent: 100, bytesReceived: 50,
                reusedConnection: false, callSite: "App.swift:1"))))
        }
        XCTAssertEqual(try Self.audit(record, "network.avoid-chatty-protocols").numericValue, 0)
        // The same requests with no client's word that the third is a retry: one round trip waited for.
        XCTAssertEqual(try Self.audit(Self.networkRecord(requests), "network.avoid-chatty-protocols").numericValue, 1)
    }

    func testRequestsInFlightTogetherShareARoundTrip() {
        // Six small requests issued together (the guide's enqueue-together): one round trip.
        let together = (0..<6).map { Self.wire("/thumb/\($0)", 2 + Double($0) * 0.001, 2.2) }
        let exchanges = ChattyExchange.group(together, prompts: [])
        XCTAssertEqual(exchanges.count, 1)
        XCTAssertEqual(exchanges.first?.roundTrips, 1)
        // Another host, a large body, or a gap over 1.5 s starts a new exchange.
        let apart = [Self.wire("/a", 1, 1.1), Self.wire("/b", 1.2, 1.3, host: "cdn.example"), Self.wire("/c", 1.4, 1.5, down: 20_000),
                     Self.wire("/d", 3.2, 3.3)]
        XCTAssertTrue(ChattyExchange.group(apart, prompts: []).isEmpty)
    }

    func testATransferTheUserAskedForIsNotTrickle() throws {
        // A launch fetch at 0.5 s, then an upload 0.3 s after a tap at 10 s: two bursts, but the
        // second is the user's. Judged alone, the launch burst is one burst: 1×.
        let chunks = [TrafficChunk(connection: 1, direction: .downlink, time: 0.5, bytes: 4000),
                      TrafficChunk(connection: 2, direction: .uplink, time: 10.3, bytes: 60_000)]
        let prompted = try Self.audit(Self.networkRecord([], inputs: [10], chunks: chunks), "network.transmit-in-bursts")
        XCTAssertEqual(try XCTUnwrap(prompted.numericValue), 1, accuracy: 1e-9)
        XCTAssertTrue(prompted.displayValue.contains("the user asked for"), prompted.displayValue)
        // Without the tap the same upload is background traffic: two bursts, over 1.5×.
        let unprompted = try Self.audit(Self.networkRecord([], chunks: chunks), "network.transmit-in-bursts")
        XCTAssertGreaterThan(try XCTUnwrap(unprompted.numericValue), 1.5)
        // Every burst the user's: not applicable.
        let all = try Self.audit(Self.networkRecord([], inputs: [0.4, 10], chunks: chunks), "network.transmit-in-bursts")
        XCTAssertEqual(all.scoreDisplayMode, .notApplicable)
    }

    // MARK: power.avoid-polling

    func testASteadyOneHertzWakeScoresBelowPointThreeAtEitherSideOfASample() throws {
        // A 1 s timer reads 0.85–1.0 wakeups/s (its ticks fall either side of a 0.2 s sample).
        let rule = try XCTUnwrap(RuleCatalogue.rule("power.avoid-polling"))
        for rate in [0.85, 0.9, 0.96, 1.0, 2.0] {
            XCTAssertLessThan(rule.scoring.score(rate), 0.3, "\(rate)/s")
        }
        XCTAssertGreaterThanOrEqual(rule.scoring.score(0.1), 0.9)
    }

    // MARK: frugal rules

    func testEveryRuleSaysItsEvidenceAndWhenItDoesNotApply() {
        for rule in RuleCatalogue.all where rule.measured {
            XCTAssertFalse((rule.evidence ?? "").isEmpty, rule.id)
            XCTAssertFalse((rule.notApplicableWhen ?? "").isEmpty, rule.id)
        }
    }

    func testAdviceToAProgramNeverNamesFrugalKit() {
        for rule in RuleCatalogue.all {
            let advice = FixAdvice.text(rule.id, platform: .program) ?? ""
            XCTAssertFalse(advice.isEmpty, rule.id)
            for word in ["FrugalKit", "addReadSource", "FileStore", "PurgeableBuffer", "MappedResource", "didEnterBackground"] {
                XCTAssertFalse(advice.contains(word), "\(rule.id): \(advice)")
            }
        }
        XCTAssertTrue(FixAdvice.text("power.avoid-polling", platform: .program)?.contains("epoll") ?? false)
        XCTAssertTrue(FixAdvice.text("power.avoid-polling")?.contains("tolerance") ?? false)
    }
}
