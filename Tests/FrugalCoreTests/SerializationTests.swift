import Foundation
import XCTest
@testable import FrugalCore

final class SerializationTests: XCTestCase {
    func testScenarioStepsReadAsAUserWouldWriteThem() throws {
        let json = #"["launch", {"wait": 2.5}, {"input": "tap"}, "terminate"]"#
        let steps = try JSONDecoder().decode([ScenarioStep].self, from: Data(json.utf8))
        XCTAssertEqual(steps, [.launch, .wait(seconds: 2.5), .input(kind: "tap"), .terminate])
        let again = try JSONDecoder().decode([ScenarioStep].self, from: JSONEncoder().encode(steps))
        XCTAssertEqual(again, steps)
    }

    func testUnknownOrBadStepsAreRejectedWithTheirName() {
        XCTAssertThrowsError(try JSONDecoder().decode([ScenarioStep].self, from: Data(#"["jump"]"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("jump"), "\(error)")
        }
        XCTAssertThrowsError(try JSONDecoder().decode([ScenarioStep].self, from: Data(#"[{"wait": -1}]"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode([ScenarioStep].self, from: Data(#"[{"wait": 1, "input": "x"}]"#.utf8)))
    }

    func testWorkloadEventsRoundTrip() throws {
        let events: [WorkloadEvent] = [
            WorkloadEvent(time: 1, body: .hello(Hello(pid: 7, mainThreadID: 7, workload: "idle",
                                                      counters: [CounterAvailability(name: "x", source: "papi", available: false, reason: "r")]))),
            WorkloadEvent(time: 2, body: .stateChanged(StateChange(from: .inactive, to: .active))),
            WorkloadEvent(time: 3, body: .handler(HandlerRecord(name: "timer:poll", start: 2, end: 3, cpuNanoseconds: 5, contextSwitches: 1, counterSource: "papi"))),
            WorkloadEvent(time: 4, body: .ack(Ack(sequence: 9))),
            WorkloadEvent(time: 5, body: .mark(Mark(name: "m", detail: nil))),
        ]
        for event in events {
            XCTAssertEqual(try JSONDecoder().decode(WorkloadEvent.self, from: JSONEncoder().encode(event)), event)
        }
        XCTAssertThrowsError(try JSONDecoder().decode(WorkloadEvent.self, from: Data(#"{"t":1,"type":"nope"}"#.utf8)))
    }

    func testUnavailableMetricIsNullNotZero() throws {
        let metric = MetricValue.unavailable(unit: "count", source: "papi:perf::CONTEXT-SWITCHES", reason: "PAPI_EPERM")
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(metric)) as? [String: Any]
        XCTAssertTrue(object?["value"] is NSNull, "value must be an explicit null")
        XCTAssertEqual(object?["unavailable"] as? String, "PAPI_EPERM")
        XCTAssertEqual(try JSONDecoder().decode(MetricValue.self, from: JSONEncoder().encode(metric)), metric)
    }
}
