import XCTest
@testable import FrugalCore

/// network.handle-failures from the wire (`WireFailureLedger`): the flaky scenario as any client
/// meets it — a reset fault at 0.5 s, offline from 2.5 s to 5.5 s — told apart by what the
/// origin answered after each failure.
final class WireFailureLedgerTests: XCTestCase {
    static func request(_ connection: Int, _ target: String, start: Double, end: Double?, status: Int = 200) -> WireRequest {
        WireRequest(connection: connection, originConnection: connection, reusedConnection: false, method: "POST", host: "api.corpus.test",
                    path: target, query: nil, status: status, source: .synthetic, requestBodyBytes: 27, responseBodyBytes: 2,
                    responseDecodedBodyBytes: 2, contentEncoding: nil, acceptEncoding: nil, uplinkOffset: 0, downlinkOffset: 0,
                    downlinkEndOffset: end == nil ? nil : 100, start: start, firstByte: end, end: end, timesFromProxy: true)
    }

    /// The flaky scenario's record: the fault and the offline period, with `events` and `requests`.
    static func record(events: [ConnectionEvent], requests: [WireRequest], chunks: [TrafficChunk] = []) -> NetworkRecord {
        var record = NetworkRecord(proxyAddress: "127.0.0.1:1", radio: .lte, trace: ProxyTrace(chunks: chunks, events: events),
                                   origin: OriginStatistics(),
                                   conditions: [NetworkConditionChange(time: 0, profile: .lte), NetworkConditionChange(time: 2.5, profile: .offline),
                                                NetworkConditionChange(time: 5.5, profile: .lte)],
                                   faults: [InjectedFault(time: 0.5, kind: "reset", detail: "resetAfter(bytes: 256, direction: uplink) × 1 connection")])
        record.requests = requests
        return record
    }

    static let failures: [ConnectionEvent] = [
        ConnectionEvent(connection: 1, kind: .open, time: 0.51),
        ConnectionEvent(connection: 1, kind: .reset, time: 0.53, detail: "fault: resetAfter(bytes: 256, direction: uplink)"),
        ConnectionEvent(connection: 3, kind: .refused, time: 2.6, detail: "offline"),
    ]

    /// The good app: a retry 0.5 s after the reset goes through; three refused attempts while
    /// offline (0.5 s, 1 s, 2 s apart), and the fourth, after the link is back, goes through.
    func testRetriesThatGoThroughRecoverEachFailure() {
        let events = Self.failures + [
            ConnectionEvent(connection: 2, kind: .open, time: 1.03),
            ConnectionEvent(connection: 4, kind: .refused, time: 3.1, detail: "offline"),
            ConnectionEvent(connection: 5, kind: .refused, time: 4.1, detail: "offline"),
            ConnectionEvent(connection: 6, kind: .open, time: 6.1),
        ]
        let ledger = WireFailureLedger(Self.record(events: events, requests: [
            Self.request(2, "/upload/notes", start: 1.04, end: 1.2), Self.request(6, "/upload/notes", start: 6.11, end: 6.3),
        ]))
        XCTAssertEqual(ledger.operations.count, 2, "one operation per injected failure, its retries folded in")
        XCTAssertEqual(ledger.operations.map(\.failures.count), [1, 3])
        XCTAssertTrue(ledger.lost.isEmpty)
        XCTAssertEqual(ledger.operations.map { $0.recoveredBy?.start }, [1.04, 6.11])
    }

    /// The bad app: one try each, nothing after: both operations lost.
    func testGivingUpLosesTheOperation() {
        let ledger = WireFailureLedger(Self.record(events: Self.failures, requests: []))
        XCTAssertEqual(ledger.lost.count, 2)
        XCTAssertTrue(ledger.operations[0].cause.hasPrefix("fault reset"))
        XCTAssertTrue(ledger.operations[1].cause.hasPrefix("offline"))
    }

    /// A failed request the origin read names the operation: a later answer to another request
    /// does not recover it; an answer to the same one does. A 5xx answer is no recovery.
    func testANamedOperationIsRecoveredOnlyByTheSameRequest() {
        let events = [ConnectionEvent(connection: 1, kind: .reset, time: 0.6, detail: "fault: resetAfter(bytes: 256, direction: downlink)")]
        let failed = Self.request(1, "/upload/a", start: 0.52, end: nil)
        let other = WireFailureLedger(Self.record(events: events, requests: [failed, Self.request(2, "/feed", start: 1, end: 1.1),
                                                                               Self.request(3, "/upload/a", start: 1.2, end: 1.3, status: 503)]))
        XCTAssertEqual(other.operations.first?.label, "POST /upload/a")
        XCTAssertEqual(other.lost.count, 1)
        let same = WireFailureLedger(Self.record(events: events, requests: [failed, Self.request(2, "/upload/a", start: 1, end: 1.1)]))
        XCTAssertTrue(same.lost.isEmpty)
    }

    /// Going offline resets a kept-alive connection whose requests had all been answered and that
    /// sent nothing since: nothing was in flight, so no operation met the failure.
    func testAnIdleKeptAliveConnectionCutByGoingOfflineIsNoFailure() {
        let events = [ConnectionEvent(connection: 1, kind: .open, time: 0.2), ConnectionEvent(connection: 1, kind: .reset, time: 2.5, detail: "offline")]
        let chunks = [TrafficChunk(connection: 1, direction: .uplink, time: 0.21, bytes: 200), TrafficChunk(connection: 1, direction: .downlink, time: 0.3, bytes: 100)]
        var record = Self.record(events: events, requests: [Self.request(1, "/feed", start: 0.21, end: 0.3)], chunks: chunks)
        record.faults = []
        XCTAssertTrue(WireFailureLedger(record).operations.isEmpty)
        // The same connection with a request sent after its last answer was cut mid-request.
        record.trace.chunks.append(TrafficChunk(connection: 1, direction: .uplink, time: 2.4, bytes: 200))
        XCTAssertEqual(WireFailureLedger(record).lost.count, 1)
    }

    /// `sync.fragile` under load: the second sync reused two kept-alive connections just as the
    /// network went offline, and the reset cut its requests before the proxy forwarded a byte (no
    /// uplink chunk). The proxy names what it cut (`ConnectionEvent.request`): two operations lost,
    /// where the ledger once read two idle connections and counted 2 of the 4 lost.
    func testAKeptAliveConnectionWhoseNewRequestTheResetCutIsAFailure() {
        let events = [ConnectionEvent(connection: 1, kind: .open, time: 0.2), ConnectionEvent(connection: 2, kind: .open, time: 0.2),
                      ConnectionEvent(connection: 1, kind: .reset, time: 2.51, detail: "offline", request: "POST /upload/note-2-0"),
                      ConnectionEvent(connection: 2, kind: .reset, time: 2.51, detail: "offline", request: "POST /upload/note-2-1")]
        let chunks = [TrafficChunk(connection: 1, direction: .uplink, time: 0.21, bytes: 200), TrafficChunk(connection: 2, direction: .uplink, time: 0.21, bytes: 200)]
        var record = Self.record(events: events, requests: [Self.request(1, "/upload/note-1-0", start: 0.21, end: 0.3),
                                                            Self.request(2, "/upload/note-1-1", start: 0.21, end: 0.3)], chunks: chunks)
        record.faults = []
        let ledger = WireFailureLedger(record)
        XCTAssertEqual(ledger.lost.map(\.label), ["POST /upload/note-2-0", "POST /upload/note-2-1"])
    }

    /// The outage of `sync.fragile`: three uploads refused at once, each connection carrying the
    /// request line the proxy read before the reset. Named, they are three operations, not one,
    /// and a later answer to another request recovers none of them (before, unnamed, they were
    /// one operation recovered by any later request).
    func testRefusedAttemptsNamedByTheirRequestLineAreSeparateOperations() {
        let events = (0..<3).map { index in
            ConnectionEvent(connection: 3 + index, kind: .refused, time: 2.6 + Double(index) * 0.001, detail: "offline",
                            request: "POST /upload/note-2-\(index)")
        }
        let ledger = WireFailureLedger(Self.record(events: events, requests: [Self.request(9, "/feed", start: 6, end: 6.1)]))
        XCTAssertEqual(ledger.operations.count, 3)
        XCTAssertEqual(ledger.lost.count, 3, "an answer to /feed recovers no upload")
        XCTAssertEqual(Set(ledger.operations.compactMap(\.label)).count, 3)
        // A retry of one of them that goes through recovers that one only.
        let retried = WireFailureLedger(Self.record(events: events, requests: [Self.request(9, "/upload/note-2-1", start: 6, end: 6.1)]))
        XCTAssertEqual(retried.lost.count, 2)
    }

    /// Two of an outage's refused attempts carry their request line and the third none (the
    /// proxy's wait for it ran out on a loaded machine). The app's client reported all three:
    /// the two the wire named claim their reports, so the third is named by its own, not by the
    /// nearest report (note-2-0's, which once made two lost operations one, 3 of 4 in CI).
    func testAnAttemptTheWireNamedClaimsTheClientsReportOfIt() {
        let events = [ConnectionEvent(connection: 3, kind: .refused, time: 2.600, detail: "offline", request: "POST /upload/note-2-0"),
                      ConnectionEvent(connection: 4, kind: .refused, time: 2.640, detail: "offline", request: "POST /upload/note-2-1"),
                      ConnectionEvent(connection: 5, kind: .refused, time: 2.680, detail: "offline")]
        let reports = [(label: "POST /upload/note-2-0", start: 2.59, end: 2.70), (label: "POST /upload/note-2-1", start: 2.63, end: 2.71),
                       (label: "POST /upload/note-2-2", start: 2.67, end: 2.80)]
        let ledger = WireFailureLedger(Self.record(events: events, requests: []), clientFailures: reports)
        XCTAssertEqual(ledger.lost.map(\.label), ["POST /upload/note-2-0", "POST /upload/note-2-1", "POST /upload/note-2-2"])
    }

    /// FrugalKit's client names a failed attempt the origin never read (detail, when present).
    func testTheAppsClientNamesAnUnreadFailedAttempt() {
        let ledger = WireFailureLedger(Self.record(events: Self.failures, requests: [Self.request(9, "/upload/b", start: 3, end: 3.1)]),
                                       clientFailures: [(label: "POST /upload/a", start: 0.5, end: 0.54)])
        XCTAssertEqual(ledger.operations.first?.label, "POST /upload/a")
        XCTAssertTrue(ledger.operations.first?.lost ?? false, "an answer to another request does not recover it")
    }
}
