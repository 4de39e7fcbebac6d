import XCTest
@testable import FrugalCore

/// The HTTP client's state for connections kept open is the platform's in the memory audits
/// (`MemoryAnalysis+Connections`): an app that fetched six things at once over HTTPS and holds
/// nothing else has nothing to free on a warning, while one that keeps its own cache still fails.
final class MemoryConnectionStateTests: XCTestCase {
    typealias Hand = OtherHandAuditTests
    static let s = Hand.s, ms = Hand.ms, start = Hand.start

    /// A warning at 3 s: 4 MiB footprint at launch, `atWarning` MiB at delivery, `after` MiB 1 s
    /// later; `connections` opened through the proxy at 1 s (`tls` of them with completed
    /// handshakes), `closedAt` closing them all.
    static func warning(atWarning: Int, after: Int, connections: Int, tls: Int, closedAt: Double? = nil) -> RunRecord {
        var record = Hand.dictionaryWarning(after: after)
        record.samples = [ProcessSample(time: start + 600 * ms, threads: [], memory: Hand.footprint(4)),
                          ProcessSample(time: start + 2 * s, threads: [], memory: Hand.footprint(atWarning))]
        let delivery = WarningDelivery(sequence: 1, level: .warning, origin: "scenario", time: start + 3 * s,
                                       atDelivery: Hand.footprint(atWarning), after100ms: Hand.footprint(after), after1s: Hand.footprint(after))
        record.memory = MemoryRunFacts(deliveries: [delivery])
        var events = (0..<connections).map { ConnectionEvent(connection: $0, kind: .open, time: 1.0) }
        if let closedAt { events += (0..<connections).map { ConnectionEvent(connection: $0, kind: .close, time: closedAt) } }
        var network = NetworkRecord(proxyAddress: "127.0.0.1:1", radio: .lte, trace: ProxyTrace(events: events), origin: OriginStatistics(),
                                    conditions: [], faults: [])
        network.tls = TLSRecord(certificateAuthority: "CN=run", fingerprint: "00", trust: [], handshakes: (0..<tls).map { _ in
            TLSHandshakeRecord(time: 1.1, host: "api.example.test", port: 443, outcome: .completed, detail: nil)
        })
        record.network = network
        return record
    }

    func testSixHTTPSConnectionsKeptOpenAreNotTheAppsToFree() throws {
        // 6 MiB gained, all of it six kept-alive HTTPS connections (measured: 5.99 MiB for six).
        let kept = try Hand.audit(Self.warning(atWarning: 10, after: 10, connections: 6, tls: 6), "memory.respond-to-warnings")
        XCTAssertEqual(kept.scoreDisplayMode, .notApplicable, kept.displayValue)
        XCTAssertTrue(kept.explanation?.contains("6 connections kept open (6 HTTPS)") ?? false, kept.explanation ?? "")
        // The same footprint with the connections closed before the warning is the app's own.
        let closed = try Hand.audit(Self.warning(atWarning: 10, after: 10, connections: 6, tls: 6, closedAt: 2), "memory.respond-to-warnings")
        XCTAssertLessThan(try XCTUnwrap(closed.score), 0.5, closed.displayValue)
        // Plain HTTP connections are allowed their buffers only: 6 MiB above them is the app's.
        let plain = try Hand.audit(Self.warning(atWarning: 10, after: 10, connections: 6, tls: 0), "memory.respond-to-warnings")
        XCTAssertLessThan(try XCTUnwrap(plain.score), 0.5, plain.displayValue)
    }

    func testAnAppsOwnCacheIsJudgedOnTopOfItsConnections() throws {
        // 20 MiB of a cache beside six HTTPS connections' 6 MiB: freed, nothing of its own is held.
        let frees = try Hand.audit(Self.warning(atWarning: 30, after: 10, connections: 6, tls: 6), "memory.respond-to-warnings")
        XCTAssertEqual(try XCTUnwrap(frees.numericValue), 0, accuracy: 1e-12)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(frees.score), 0.9)
        // Kept: all 20 MiB of its own still held.
        let keeps = try Hand.audit(Self.warning(atWarning: 30, after: 30, connections: 6, tls: 6), "memory.respond-to-warnings")
        XCTAssertEqual(try XCTUnwrap(keeps.numericValue), 1, accuracy: 1e-12)
        XCTAssertLessThan(try XCTUnwrap(keeps.score), 0.5)
    }

    func testOpenConnectionsAtAMomentCountOnlyThoseAcceptedAndNotEnded() throws {
        let t = Self.start
        var record = Self.warning(atWarning: 10, after: 10, connections: 0, tls: 0)
        record.network?.trace = ProxyTrace(events: [
            ConnectionEvent(connection: 1, kind: .open, time: 1), ConnectionEvent(connection: 2, kind: .open, time: 1),
            ConnectionEvent(connection: 3, kind: .open, time: 1), ConnectionEvent(connection: 3, kind: .reset, time: 1.5),
            ConnectionEvent(connection: 4, kind: .open, time: 2.5),
        ])
        record.network?.tls?.handshakes = [TLSHandshakeRecord(time: 1.2, host: "h", port: 443, outcome: .completed, detail: nil),
                                           TLSHandshakeRecord(time: 1.3, host: "h", port: 443, outcome: .refused, detail: "unknown ca")]
        XCTAssertNil(MemoryAnalysis.openConnections(at: t + 500 * Self.ms, in: record))
        let atTwo = try XCTUnwrap(MemoryAnalysis.openConnections(at: t + 2 * Self.s, in: record))
        XCTAssertEqual(atTwo, MemoryAnalysis.OpenConnections(open: 2, tls: 1))
        XCTAssertEqual(atTwo.bytes, MemoryAnalysis.tlsConnectionStateBytes + MemoryAnalysis.plainConnectionStateBytes)
        XCTAssertEqual(MemoryAnalysis.openConnections(at: t + 3 * Self.s, in: record)?.open, 3)
        record.network = nil
        XCTAssertNil(MemoryAnalysis.openConnections(at: t + 3 * Self.s, in: record))
    }
}
