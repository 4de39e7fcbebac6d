import Foundation
import XCTest
import FrugalCore

/// The protocol's messages as they cross the pipes.
final class ProtocolTests: XCTestCase {
    func testHelloCarriesTheProtocolVersion() throws {
        let hello = Hello(pid: 7, mainThreadID: 7, workload: "notes", counters: [])
        XCTAssertEqual(hello.protocolVersion, FrugalProtocol.version)
        let line = try JSONEncoder().encode(WorkloadEvent(time: 1, body: .hello(hello)))
        XCTAssertTrue(String(decoding: line, as: UTF8.self).contains("\"protocolVersion\":\(FrugalProtocol.version)"))
        XCTAssertEqual(try JSONDecoder().decode(WorkloadEvent.self, from: line).body, .hello(hello))
    }

    /// An app built before versions existed sends a hello without one: version 0, not a crash.
    func testAHelloWithoutAVersionIsVersionZero() throws {
        let line = #"{"t":1,"type":"hello","hello":{"pid":7,"mainThreadID":7,"workload":"old","counters":[]}}"#
        guard case .hello(let hello) = try JSONDecoder().decode(WorkloadEvent.self, from: Data(line.utf8)).body else {
            return XCTFail("not a hello")
        }
        XCTAssertEqual(hello.effectiveProtocolVersion, 0)
        XCTAssertTrue(FrugalProtocol.mismatchMessage(app: "old", appVersion: 0).contains("protocol 0"))
        XCTAssertTrue(FrugalProtocol.mismatchMessage(app: "old", appVersion: 0).contains("speaks \(FrugalProtocol.version)"))
    }

    func testControlErrorRoundTrips() throws {
        let event = WorkloadEvent(time: 5, body: .controlError(ControlError(sequence: 3, command: "teleport", problem: "unknown command 'teleport'")))
        let line = try JSONEncoder().encode(event)
        XCTAssertEqual(try JSONDecoder().decode(WorkloadEvent.self, from: line), event)
    }
}
