import XCTest
@testable import FrugalCore

/// The report's view of a run's TLS handshakes: per host, and a finding for each way a client
/// refused the run's certificate.
final class TLSSummaryTests: XCTestCase {
    func testNoTunnelNoSummary() {
        XCTAssertNil(RunTLSSummary(nil))
        XCTAssertNil(RunTLSSummary(TLSRecord(certificateAuthority: "CN=x", fingerprint: "ab", trust: [], handshakes: [])))
    }

    func testHandshakesAreCountedPerHostAndRefusalsAreFindings() throws {
        let record = TLSRecord(certificateAuthority: "CN=Frugal run CA", fingerprint: "0123", trust: ["note"], handshakes: [
            TLSHandshakeRecord(time: 0.1, host: "api.example.test", port: 443, outcome: .completed, detail: nil),
            TLSHandshakeRecord(time: 0.2, host: "api.example.test", port: 443, outcome: .completed, detail: nil),
            TLSHandshakeRecord(time: 0.3, host: "pinned.example.test", port: 443, outcome: .closedWithoutRequest, detail: "hung up"),
            TLSHandshakeRecord(time: 0.4, host: "::1", port: 8443, outcome: .refused, detail: "the client sent the TLS alert 'unknown CA'"),
            TLSHandshakeRecord(time: 0.5, host: "::1", port: 8443, outcome: .completed, detail: nil),
        ])
        let summary = try XCTUnwrap(RunTLSSummary(record))
        XCTAssertEqual(summary.certificateAuthority, "CN=Frugal run CA, sha256:0123")
        XCTAssertEqual(summary.trust, ["note"])
        XCTAssertEqual(summary.hosts.map(\.authority), ["api.example.test:443", "pinned.example.test:443", "[::1]:8443"])
        XCTAssertEqual(summary.hosts.map(\.completed), [2, 0, 1])
        XCTAssertEqual(summary.hosts.map(\.closedWithoutRequest), [0, 1, 0])
        XCTAssertEqual(summary.hosts.map(\.refused), [0, 0, 1])
        XCTAssertEqual(summary.findings.count, 2, "\(summary.findings)")
        XCTAssertTrue(summary.findings[0].contains("pinned.example.test:443") && summary.findings[0].contains("pins"))
        XCTAssertTrue(summary.findings[1].hasPrefix("the client refused the run's certificate for [::1]:8443 in 1 of 2 TLS handshakes (the client sent the TLS alert 'unknown CA')"))
    }
}
