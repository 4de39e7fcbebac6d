import XCTest
@testable import FrugalCore

/// The network metrics and audits on hand-made records, with numbers worked out by hand from the
/// LTE profile (Huang et al. 2012): promotion 0.2601 s × 1.2107 W = 0.31490307 J; tail
/// 11.576 s × 1.06 W = 12.27056 J; a lone 1,000 B uplink chunk is 0.008 Mbit × 0.43839 W/Mbps
/// = 0.00350712 J of active energy.
final class NetworkAuditTests: XCTestCase {
    static let zero: UInt64 = 1_000_000_000
    static func ns(_ seconds: Double) -> UInt64 { zero + UInt64((seconds * 1e9).rounded()) }

    /// A 30 s run; `chunks` (seconds since exec) through a proxy on LTE.
    static func record(chunks: [TrafficChunk], origin: OriginStatistics = OriginStatistics(), events: [WorkloadEvent] = [],
                       faults: [InjectedFault] = [], network: Bool = true) -> RunRecord {
        let record = NetworkRecord(proxyAddress: "127.0.0.1:1", radio: .lte, trace: ProxyTrace(chunks: chunks), origin: origin,
                                   conditions: [NetworkConditionChange(time: 0, profile: .lte)], faults: faults)
        return RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: zero, endTime: ns(30), pid: 1, steps: [],
                         events: events, samples: [], outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0),
                         resourceUsage: nil, network: network ? record : nil)
    }

    static let twoTransfersTwentySecondsApart = [
        TrafficChunk(connection: 1, direction: .uplink, time: 2, bytes: 1000),
        TrafficChunk(connection: 2, direction: .uplink, time: 22, bytes: 1000),
    ]

    static func evaluate(_ record: RunRecord) -> (metrics: [String: MetricValue], audits: [String: AuditResult]) {
        let analysis = RunAnalysis(record)
        let metrics = MetricExtraction.metrics(of: analysis)
        return (metrics, Audits.evaluate(analysis, metrics: metrics))
    }

    func testTwoTransfersTwentySecondsApartCostTwoPromotionsAndTwoTails() throws {
        let (metrics, audits) = Self.evaluate(Self.record(chunks: Self.twoTransfersTwentySecondsApart))
        // Each transfer: promotion + its bytes + a whole tail = 12.58897019 J; two of them.
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.networkRadioJoules]?.value), 25.17794038, accuracy: 1e-9)
        XCTAssertEqual(metrics[MetricName.networkRadioJoules]?.source, "model:lte-huang2012")
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.networkRadioTailSeconds]?.value), 23.152, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.networkRadioActiveSeconds]?.value), 23.6722, accuracy: 1e-9)
        XCTAssertEqual(metrics[MetricName.networkRadioPromotions]?.value, 2)
        XCTAssertEqual(metrics[MetricName.networkBytesSent]?.value, 2000)
        XCTAssertEqual(metrics[MetricName.networkBytesReceived]?.value, 0)
        // One burst: one promotion, both chunks' bytes, one tail = 12.59247731 J.
        let bursts = try XCTUnwrap(audits["network.transmit-in-bursts"])
        XCTAssertEqual(try XCTUnwrap(bursts.numericValue), 25.17794038 / 12.59247731, accuracy: 1e-9)
        XCTAssertEqual(bursts.evidence.count, 2, "two bursts as evidence")
    }

    /// Weather's day in CI, beside the tests: the app fetched at 2 s and exited at 30 s, and the
    /// origin's TLS close_notify (24 B) for the connection its exit closed came down 62 ms after
    /// it. Nothing of the app was there to receive it: it is not the app's transfer, and the
    /// fetch is still one burst. What the app wrote before it ended counts however late the link
    /// let it out.
    func testDownlinkBytesAfterTheAppHasEndedAreNotItsTransfers() throws {
        let fetch = [TrafficChunk(connection: 1, direction: .uplink, time: 2, bytes: 1000),
                     TrafficChunk(connection: 1, direction: .downlink, time: 2.1, bytes: 1000)]
        let goodbye = TrafficChunk(connection: 1, direction: .downlink, time: 30.062, bytes: 24)
        let alone = Self.evaluate(Self.record(chunks: fetch))
        let (metrics, audits) = Self.evaluate(Self.record(chunks: fetch + [goodbye]))
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.networkRadioPromotions]?.value), 1)
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.networkRadioJoules]?.value),
                       try XCTUnwrap(alone.metrics[MetricName.networkRadioJoules]?.value), accuracy: 1e-9)
        let bursts = try XCTUnwrap(audits["network.transmit-in-bursts"])
        XCTAssertEqual(try XCTUnwrap(bursts.numericValue), try XCTUnwrap(alone.audits["network.transmit-in-bursts"]?.numericValue), accuracy: 1e-9)
        XCTAssertTrue(bursts.displayValue.contains("1 burst,"), bursts.displayValue)
        // Inside the run the same 24 B are a transfer: a second burst, 28 s after the first.
        let inside = TrafficChunk(connection: 1, direction: .downlink, time: 29.9, bytes: 24)
        XCTAssertTrue(Self.evaluate(Self.record(chunks: fetch + [inside])).audits["network.transmit-in-bursts"]?.displayValue.contains("2 bursts") == true)
        // Bytes the app wrote before it ended, let out by the link after it, are its own.
        let drained = TrafficChunk(connection: 1, direction: .uplink, time: 30.5, bytes: 500)
        XCTAssertEqual(NetworkAnalysis.receivable(fetch + [goodbye, drained], runSeconds: 30), fetch + [drained])
    }

    func testTwoTransfersFiveSecondsApartShareOneTail() throws {
        let chunks = [TrafficChunk(connection: 1, direction: .uplink, time: 2, bytes: 1000),
                      TrafficChunk(connection: 1, direction: .uplink, time: 7, bytes: 1000)]
        let (metrics, audits) = Self.evaluate(Self.record(chunks: chunks))
        // promotion + 2 × bytes + 5 s of tail between them at 1.06 W + one whole tail.
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.networkRadioJoules]?.value), 0.31490307 + 2 * 0.00350712 + 5.3 + 12.27056, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(audits["network.transmit-in-bursts"]?.numericValue), 17.89247731 / 12.59247731, accuracy: 1e-9)
    }

    func testPromotionsAnInputAskedForAreNotPolling() throws {
        let input = WorkloadEvent(time: Self.ns(1.5), body: .handler(HandlerRecord(name: "input:refresh", start: Self.ns(1.5), end: Self.ns(1.51))))
        let timer = WorkloadEvent(time: Self.ns(21.9), body: .handler(HandlerRecord(name: "timer:poll", start: Self.ns(21.9), end: Self.ns(21.91))))
        let audit = try XCTUnwrap(Self.evaluate(Self.record(chunks: Self.twoTransfersTwentySecondsApart, events: [input, timer])).audits["network.no-server-polling"])
        // The promotion before 2 s follows the input by 0.5 s; the one before 22 s follows only a
        // timer: 1 unprompted promotion in a 30 s run. One event in less than the rule's minute is
        // judged as the count it is, not extrapolated to 2 per minute.
        XCTAssertEqual(try XCTUnwrap(audit.numericValue), 1, accuracy: 1e-12)
        XCTAssertTrue(audit.displayValue.contains("judged as a count"), audit.displayValue)
        XCTAssertEqual(audit.evidence.count, 1)
        XCTAssertEqual(try XCTUnwrap(audit.evidence.first?.time), 22 - 0.2601, accuracy: 1e-9)
    }

    /// 30 requests' worth of traffic: 30,000 B on the wire, over one TCP initial window.
    static let thirtyKilobytes = (0..<30).map { TrafficChunk(connection: 1, direction: .downlink, time: 2 + Double($0) * 0.01, bytes: 1000) }

    /// An origin that answered `requests` on one path with `bytes` of bodies deflating 6×.
    static func origin(requests: Int, bytes: Int) -> OriginStatistics {
        var origin = OriginStatistics()
        var path = OriginStatistics.PathStatistics()
        path.requests = requests
        path.responseBodyBytes = bytes
        path.deflateInputBytes = bytes
        path.deflatedBytes = bytes / 6
        origin.paths["/json/2000"] = path
        return origin
    }

    func testCompactTransfersAndChattinessComeFromTheOrigin() throws {
        var origin = Self.origin(requests: 30, bytes: 60_000)
        let audits = Self.evaluate(Self.record(chunks: Self.thirtyKilobytes, origin: origin)).audits
        XCTAssertEqual(audits["network.compact-transfers"]?.numericValue, 6)
        XCTAssertLessThan(try XCTUnwrap(audits["network.compact-transfers"]?.score), 0.5)
        // Bytes on the wire but no request the origin logged: the requests cannot be told apart.
        XCTAssertEqual(audits["network.avoid-chatty-protocols"]?.scoreDisplayMode, .unavailable)

        origin.paths["/json/2000"]?.deflateInputBytes = nil
        origin.paths["/json/2000"]?.deflatedBytes = nil
        let unmeasured = Self.evaluate(Self.record(chunks: Self.thirtyKilobytes, origin: origin)).audits
        XCTAssertEqual(unmeasured["network.compact-transfers"]?.scoreDisplayMode, .unavailable)
    }

    /// Under one TCP initial window (14,600 B, RFC 6928) compression is not judged, and says why.
    func testTrafficWithinOneInitialWindowIsNotJudgedForCompression() throws {
        let audits = Self.evaluate(Self.record(chunks: Self.twoTransfersTwentySecondsApart, origin: Self.origin(requests: 3, bytes: 6000))).audits
        for id in ["network.compact-transfers"] {
            XCTAssertEqual(audits[id]?.scoreDisplayMode, .notApplicable, id)
            XCTAssertNil(audits[id]?.score, id)
            XCTAssertTrue(audits[id]?.explanation?.contains("RFC 6928") ?? false, audits[id]?.explanation ?? id)
        }
    }

    static func request(_ operation: String, _ start: Double, _ end: Double, outcome: NetworkRequestRecord.Outcome = .completed) -> WorkloadEvent {
        WorkloadEvent(time: ns(end), body: .networkRequest(NetworkRequestRecord(
            task: 1, method: "POST", target: "/upload/\(operation)", operation: operation, start: ns(start), end: ns(end),
            outcome: outcome, status: outcome == .completed ? 200 : nil, error: outcome == .failed ? "connection reset by peer" : nil,
            bytesSent: 100, bytesReceived: 50, reusedConnection: false, callSite: "App.swift:1", connectionLimit: 6)))
    }

    func testOneAfterAnotherIsCountedAndSetAgainstTheBatchIssuedAtOnce() throws {
        // Three 0.1 s uploads in a row (1.0–1.3 s) and a failed first attempt of another
        // operation (left out): b and c each waited for the one before. Issued at once: the
        // longest, 0.1 s (no bytes in the trace then; packed onto 6 connections: 0.3 / 6 = 0.05 s).
        let events = [Self.request("x", 0.5, 0.6, outcome: .failed), Self.request("a", 1.0, 1.1), Self.request("b", 1.1, 1.2),
                      Self.request("c", 1.2, 1.3), Self.request("x", 1.25, 1.3)]
        let audit = try XCTUnwrap(Self.evaluate(Self.record(chunks: Self.twoTransfersTwentySecondsApart, events: events)).audits["network.enqueue-together"])
        XCTAssertEqual(audit.numericValue, 2)
        XCTAssertEqual(audit.evidence.count, 1)
        XCTAssertTrue(audit.displayValue.contains("at once about 100 ms"), audit.displayValue)
    }

    func testTransferBatchesUseTheLinkRate() {
        // 2 transfers of 0.1 s side by side moving 50,000 B up on a 1 Mbit/s uplink: 0.4 s at once.
        let spans = [TransferSpan(start: 1, end: 1.1, label: "a"), TransferSpan(start: 1, end: 1.1, label: "b")]
        let chunks = [TrafficChunk(connection: 1, direction: .uplink, time: 1.05, bytes: 50_000)]
        let batches = TransferBatch.group(spans, chunks: chunks) { _ in .test(uplinkBitsPerSecond: 1_000_000) }
        XCTAssertEqual(batches.count, 1)
        XCTAssertEqual(batches.first?.issuedAtOnceSeconds ?? 0, 0.4, accuracy: 1e-12)
        XCTAssertEqual(batches.first?.uplinkBytes, 50_000)
        // A lone transfer, or one 1.6 s after the last ended, is no batch.
        XCTAssertTrue(TransferBatch.group([TransferSpan(start: 1, end: 1.1, label: "a"), TransferSpan(start: 2.71, end: 3, label: "b")],
                                          chunks: []) { _ in nil }.isEmpty)
    }

    func testHandleFailuresCountsOperationsThatNeverSucceeded() throws {
        let fault = InjectedFault(time: 0.5, kind: "reset", detail: "resetAfter")
        let events = [Self.request("a", 1.0, 1.1, outcome: .failed), Self.request("a", 2.0, 2.1),
                      Self.request("b", 1.0, 1.1, outcome: .failed), Self.request("c", 1.0, 1.1)]
        // What the wire saw: the proxy reset the connections of a's and b's first attempts (the
        // origin read neither request, so NetworkClient's failed attempts name them), and the
        // origin answered a's retry and c whole.
        var record = Self.record(chunks: [], events: events, faults: [fault])
        record.network?.trace.events = [ConnectionEvent(connection: 1, kind: .reset, time: 1.05, detail: "fault: resetAfter"),
                                        ConnectionEvent(connection: 2, kind: .reset, time: 1.06, detail: "fault: resetAfter")]
        record.network?.requests = [WireFailureLedgerTests.request(4, "/upload/c", start: 1.0, end: 1.1),
                                    WireFailureLedgerTests.request(3, "/upload/a", start: 2.0, end: 2.1)]
        let audit = try XCTUnwrap(Self.evaluate(record).audits["network.handle-failures"])
        XCTAssertEqual(audit.numericValue, 1, "b was lost; a recovered")
        XCTAssertEqual(audit.score, 0)
        XCTAssertTrue(audit.evidence.contains { $0.description.hasPrefix("lost: POST /upload/b") }, audit.evidence.map(\.description).joined(separator: "\n"))
        XCTAssertTrue(audit.evidence.contains { $0.description == "NetworkClient: b met a failure and never succeeded" })
        // NetworkClient's events alone, with nothing on the wire, decide nothing.
        XCTAssertEqual(Self.evaluate(Self.record(chunks: [], events: events, faults: [fault])).audits["network.handle-failures"]?.scoreDisplayMode, .notApplicable)
        let noFault = Self.evaluate(Self.record(chunks: [], events: events)).audits["network.handle-failures"]
        XCTAssertEqual(noFault?.scoreDisplayMode, .notApplicable)
    }

    /// A request written into a kept-alive connection the proxy had already reset never reaches
    /// the proxy: the wire shows 1 lost, the app's client 2. Both are lower bounds; the larger counts.
    func testHandleFailuresCountsWhatTheClientLostBeyondTheWire() throws {
        let fault = InjectedFault(time: 0.5, kind: "reset", detail: "resetAfter")
        let events = [Self.request("b", 1.0, 1.1, outcome: .failed), Self.request("d", 1.2, 1.21, outcome: .failed)]
        var record = Self.record(chunks: [], events: events, faults: [fault])
        // b's connection was reset with its request in flight; d was written into a connection
        // already gone, so the wire shows nothing of it.
        record.network?.trace.events = [ConnectionEvent(connection: 1, kind: .reset, time: 1.05, detail: "fault: resetAfter")]
        let audit = try XCTUnwrap(Self.evaluate(record).audits["network.handle-failures"])
        XCTAssertEqual(audit.numericValue, 2, (audit.explanation ?? "") + audit.evidence.map(\.description).joined(separator: "\n"))
        XCTAssertTrue(audit.evidence.contains { $0.description.hasPrefix("FrugalKit's client counted 2 operations lost, more than the wire showed (1") },
                      audit.evidence.map(\.description).joined(separator: "\n"))
    }

    func testNoTrafficIsNotApplicableAndNoProxyIsUnavailable() throws {
        let (metrics, audits) = Self.evaluate(Self.record(chunks: []))
        XCTAssertEqual(metrics[MetricName.networkBytesSent]?.value, 0, "the proxy counted zero bytes")
        XCTAssertNil(metrics[MetricName.networkRadioJoules]?.value)
        XCTAssertNotNil(metrics[MetricName.networkRadioJoules]?.unavailable)
        for id in ["network.transmit-in-bursts", "network.no-server-polling", "network.avoid-chatty-protocols", "network.enqueue-together"] {
            XCTAssertEqual(audits[id]?.scoreDisplayMode, .notApplicable, id)
        }
        let (oldMetrics, oldAudits) = Self.evaluate(Self.record(chunks: [], network: false))
        XCTAssertNil(oldMetrics[MetricName.networkBytesSent]?.value)
        XCTAssertNotNil(oldMetrics[MetricName.networkBytesSent]?.unavailable)
        XCTAssertEqual(oldAudits["network.transmit-in-bursts"]?.scoreDisplayMode, .unavailable)
    }

    func testRecordsWithoutANetworkFieldStillDecode() throws {
        let record = Self.record(chunks: [], network: false)
        let data = try JSONEncoder().encode(record)
        XCTAssertFalse(String(decoding: data, as: UTF8.self).contains("\"network\""))
        XCTAssertNil(try JSONDecoder().decode(RunRecord.self, from: data).network)
        let withNetwork = Self.record(chunks: Self.twoTransfersTwentySecondsApart)
        XCTAssertEqual(try JSONDecoder().decode(RunRecord.self, from: JSONEncoder().encode(withNetwork)).network, withNetwork.network)
    }

    func testNetworkStepsSerialise() throws {
        let steps: [ScenarioStep] = [.network(profile: "offline"), .fault(kind: "reset:2")]
        let data = try JSONEncoder().encode(steps)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"[{"network":"offline"},{"fault":"reset:2"}]"#)
        XCTAssertEqual(try JSONDecoder().decode([ScenarioStep].self, from: data), steps)
        XCTAssertEqual(steps.map(\.description), ["network(offline)", "fault(reset:2)"])
    }

    func testTheRadioLaneCoversTheTailPastTheRunsEnd() throws {
        let lane = try XCTUnwrap(Timeline(RunAnalysis(Self.record(chunks: Self.twoTransfersTwentySecondsApart))).radio)
        XCTAssertEqual(lane.model, "model:lte-huang2012")
        XCTAssertEqual(try XCTUnwrap(lane.intervals.last?.end), 22 + 11.576, accuracy: 1e-9)
        XCTAssertEqual(lane.intervals.map(\.state), [.idle, .promotion, .active, .tail, .idle, .promotion, .active, .tail])
    }
}
