import Foundation
import FrugalCore
@testable import FrugalHarness
import XCTest

/// Whole black-box runs of curl through the run's proxy: the wire log is the request source, and
/// what the client asked for decides the compression audit.
final class WireRequestRunTests: XCTestCase {
    static func curl(_ acceptEncoding: String, path: String = "/json/200000") -> [String] {
        ["sh", "-c", "curl -s -S -x http://$FRUGAL_PROXY -H 'Accept-Encoding: \(acceptEncoding)' -o /dev/null http://api.example.test\(path)"]
    }

    func testGzipPassesCompactTransfersIdentityFailsAndTheWireDiffersAsGzipPredicts() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let runner = try ScenarioRunnerTests.runner()
        let gzipRecord = try runner.run(RunPlan(target: .command(Self.curl("gzip")), scenario: BlackBoxRunTests.toItsEnd, repetition: 1))
        let identityRecord = try runner.run(RunPlan(target: .command(Self.curl("identity")), scenario: BlackBoxRunTests.toItsEnd, repetition: 1))
        XCTAssertEqual(gzipRecord.exitStatus?.code, 0, gzipRecord.outcomeDetail ?? "")
        XCTAssertEqual(identityRecord.exitStatus?.code, 0, identityRecord.outcomeDetail ?? "")

        let plain = OriginContent.body(forPath: "/json/200000")!
        let gzipped = try XCTUnwrap(ResponseEncoding.encode(plain, as: .gzip))
        let gzipRequest = try XCTUnwrap(gzipRecord.network?.requests?.first)
        let identityRequest = try XCTUnwrap(identityRecord.network?.requests?.first)
        XCTAssertEqual(gzipRecord.network?.requests?.count, 1)
        XCTAssertEqual(gzipRequest.host, "api.example.test", "curl sent the absolute URL to its proxy")
        XCTAssertEqual(gzipRequest.contentEncoding, "gzip")
        XCTAssertEqual(gzipRequest.responseBodyBytes, gzipped.count)
        XCTAssertEqual(identityRequest.responseBodyBytes, plain.count)
        XCTAssertTrue(gzipRequest.timesFromProxy, "placed on the proxy's trace by its socket-byte offsets")
        XCTAssertNotNil(gzipRequest.end)

        // The link carried the difference gzip predicts (the heads differ by a few header lines).
        let gzipDown = try XCTUnwrap(gzipRecord.network?.trace.totalBytes(.downlink))
        let identityDown = try XCTUnwrap(identityRecord.network?.trace.totalBytes(.downlink))
        XCTAssertEqual(Double(identityDown - gzipDown), Double(plain.count - gzipped.count), accuracy: 100)

        let gzipReport = ReportBuilder.runReport(gzipRecord)
        let identityReport = ReportBuilder.runReport(identityRecord)
        let passed = try XCTUnwrap(gzipReport.audits["network.compact-transfers"])
        let failed = try XCTUnwrap(identityReport.audits["network.compact-transfers"])
        XCTAssertGreaterThanOrEqual(passed.score ?? 0, 0.9, passed.displayValue)
        XCTAssertLessThan(failed.score ?? 1, 0.5, failed.displayValue)
        // One fetch at launch is what the program was started for, not a poll, and no rate.
        let polling = try XCTUnwrap(gzipReport.audits["network.no-server-polling"])
        XCTAssertEqual(polling.numericValue, 0, polling.displayValue)
        XCTAssertEqual(gzipReport.server?.requests, 1)
    }
}
