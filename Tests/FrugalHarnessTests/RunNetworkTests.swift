import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// The per-run origin and proxy: steps that change them, and that they stop with the run.
final class RunNetworkTests: XCTestCase {
    func testNetworkAndFaultStepsAreRecordedAndTheServersStop() throws {
        let scenario = Scenario(name: "net", summary: "test", steps: [
            .launch, .network(profile: "no-such-profile"), .fault(kind: "explode"), .network(profile: "offline"),
            .fault(kind: "reset:2"), .network(profile: "3g"), .terminate,
        ])
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .builtIn(name: "idle"), scenario: scenario, repetition: 1))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertEqual(record.steps.map { $0.problem != nil }, [false, true, true, false, false, false, false])
        let network = try XCTUnwrap(record.network)
        XCTAssertEqual(network.conditions.map(\.profile.name), ["lte", "offline", "3g"])
        XCTAssertEqual(network.faults.map(\.detail), ["resetAfter(bytes: 256, direction: uplink) × 2 connections"])
        XCTAssertTrue(network.injectedFailures)
        XCTAssertTrue(network.trace.chunks.isEmpty, "the idle app made no request")
        // Stopped with the run: nothing listens at the proxy's address any more.
        let port = try XCTUnwrap(Int(network.proxyAddress.split(separator: ":").last ?? ""))
        XCTAssertThrowsError(try BlockingSocket(port: port, timeout: 1))
    }

    func testFaultNames() {
        XCTAssertEqual(RunNetwork.fault(named: "reset")?.0, .resetAfter(bytes: 256, direction: .uplink))
        XCTAssertEqual(RunNetwork.fault(named: "refuse:3")?.1, 3)
        XCTAssertEqual(RunNetwork.fault(named: "stall")?.0, .stall(afterBytes: 256, direction: .uplink))
        XCTAssertNil(RunNetwork.fault(named: "reset:0"))
        XCTAssertNil(RunNetwork.fault(named: "boom"))
    }

    func testTheWorkloadFindsTheProxyInItsEnvironment() throws {
        // A black-box command sees FRUGAL_PROXY and can fetch through it with raw sockets (here: bash's /dev/tcp).
        let script = #"host=${FRUGAL_PROXY%:*}; port=${FRUGAL_PROXY#*:}; exec 3<>/dev/tcp/$host/$port && printf 'GET /ping HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n' >&3 && cat <&3 | grep -q pong"#
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["bash", "-c", script]), scenario: ScenarioRunnerTests.short, repetition: 1))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertEqual(record.network?.origin.paths["/ping"]?.requests, 1)
        XCTAssertGreaterThan(record.network?.trace.totalBytes(.downlink) ?? 0, 0)
    }
}
