import Foundation
import FrugalCore
@testable import FrugalHarness
import XCTest

/// Connections that go past the run's proxy are found from the run's sockets and reported as
/// unseen traffic, never as zero bytes.
/// Light runs (XCTestCase+Machine.swift): judged on the connections found, never on time.
final class UnseenTrafficTests: XCTestCase {
    func testAConnectionPastTheProxyIsUnseenTrafficNotZero() throws {
        // Somewhere else to talk to, on loopback: a server of the test's, not the run's.
        let elsewhere = OriginServer()
        let port = try elsewhere.start()
        defer { elsewhere.stop() }
        // Holds the connection 0.4 s, several of the watch's 50 ms looks.
        let script = "exec 3<>/dev/tcp/127.0.0.1/\(port) && sleep 0.4 && exec 3>&-"
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["bash", "-c", script]),
                                                                  scenario: BlackBoxRunTests.toItsEnd, repetition: 1).demanding(.light))
        XCTAssertEqual(record.exitStatus?.code, 0, record.outcomeDetail ?? "")
        let unseen = try XCTUnwrap(record.network?.unseenConnections)
        XCTAssertEqual(unseen.map(\.remoteAddress), ["127.0.0.1:\(port)"])
        XCTAssertTrue(record.network?.trace.chunks.isEmpty == true, "nothing went through the proxy")
        let report = ReportBuilder.runReport(record)
        let received = try XCTUnwrap(report.metrics[MetricName.networkBytesReceived])
        XCTAssertNil(received.value, "not zero")
        XCTAssertTrue(received.unavailable?.contains("went past the proxy") == true, "\(received)")
        XCTAssertEqual(report.server?.unseen, ["127.0.0.1:\(port)"])
        let bursts = try XCTUnwrap(report.audits["network.transmit-in-bursts"])
        XCTAssertNil(bursts.score)
        XCTAssertTrue((bursts.explanation ?? "").contains("past the proxy") || bursts.displayValue.contains("past the proxy"),
                      "\(bursts.displayValue) / \(bursts.explanation ?? "")")
    }

    func testConnectionsThroughTheProxyAreNotUnseen() throws {
        let script = #"host=${FRUGAL_PROXY%:*}; port=${FRUGAL_PROXY#*:}; exec 3<>/dev/tcp/$host/$port && printf 'GET /json/100 HTTP/1.1\r\nhost: x\r\n\r\n' >&3 && sleep 0.3 && exec 3>&-"#
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["bash", "-c", script]),
                                                                  scenario: BlackBoxRunTests.toItsEnd, repetition: 1).demanding(.light))
        XCTAssertEqual(record.network?.unseenConnections, [])
        XCTAssertEqual(record.network?.requests?.count, 1)
    }
}
