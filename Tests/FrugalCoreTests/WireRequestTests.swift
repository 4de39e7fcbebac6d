import FrugalCore
import XCTest

/// The wire log's requests placed on the proxy's link, and rates that are not extrapolated from one event.
final class WireRequestTests: XCTestCase {
    static func request(connection: Int?, up: Int, down: Int, downEnd: Int?, start: Double = 9) -> WireRequest {
        WireRequest(connection: connection, originConnection: 1, reusedConnection: up > 0, method: "GET", host: "api.example.test",
                    path: "/a", query: nil, status: 200, source: .fixture, requestBodyBytes: 0, responseBodyBytes: 100,
                    responseDecodedBodyBytes: 100, contentEncoding: nil, acceptEncoding: nil, uplinkOffset: up,
                    downlinkOffset: down, downlinkEndOffset: downEnd, start: start, firstByte: start, end: start)
    }

    func testRequestsArePlacedOnTheirConnectionsChunksByByteOffset() {
        // Connection 1 carries two requests (100 B up each; 300 B then 500 B down); connection 2 is another client's.
        let chunks = [
            TrafficChunk(connection: 1, direction: .uplink, time: 1.0, bytes: 100),
            TrafficChunk(connection: 2, direction: .downlink, time: 1.05, bytes: 9999),
            TrafficChunk(connection: 1, direction: .downlink, time: 1.1, bytes: 200),
            TrafficChunk(connection: 1, direction: .downlink, time: 1.2, bytes: 100),
            TrafficChunk(connection: 1, direction: .uplink, time: 2.0, bytes: 100),
            TrafficChunk(connection: 1, direction: .downlink, time: 2.1, bytes: 250),
            TrafficChunk(connection: 1, direction: .downlink, time: 2.3, bytes: 250),
        ]
        let placed = WireRequest.placeOnLink([
            Self.request(connection: 1, up: 0, down: 0, downEnd: 300),
            Self.request(connection: 1, up: 100, down: 300, downEnd: 800),
            Self.request(connection: 1, up: 200, down: 800, downEnd: 900),  // past what the proxy released
            Self.request(connection: nil, up: 0, down: 0, downEnd: 10),
        ], chunks: chunks)
        XCTAssertEqual(placed[0].start, 1.0)
        XCTAssertEqual(placed[0].firstByte, 1.1)
        XCTAssertEqual(placed[0].end, 1.2, "the chunk that reaches the response's last byte")
        XCTAssertEqual(placed[1].start, 2.0)
        XCTAssertEqual(placed[1].firstByte, 2.1)
        XCTAssertEqual(placed[1].end, 2.3)
        XCTAssertTrue(placed[1].timesFromProxy)
        XCTAssertFalse(placed[2].timesFromProxy, "offsets past the trace keep the origin's times")
        XCTAssertEqual(placed[2].start, 9)
        XCTAssertFalse(placed[3].timesFromProxy, "no proxy connection: the origin's times")
    }

    func testOnePromotionInAShortRunIsACountNotARate() {
        let one = PromotionAttribution.perMinute(count: 1, seconds: 4)
        XCTAssertEqual(one.value, 1, "not 15 a minute")
        XCTAssertTrue(one.display.contains("judged as a count"), one.display)
        XCTAssertEqual(PromotionAttribution.perMinute(count: 0, seconds: 4).value, 0)
        // Two or more show their spacing: a rate, even in a short run (a poll every 14 s in 30 s).
        XCTAssertEqual(PromotionAttribution.perMinute(count: 2, seconds: 30).value, 4, accuracy: 1e-9)
        XCTAssertEqual(PromotionAttribution.perMinute(count: 1, seconds: 120).value, 0.5, accuracy: 1e-9)
    }

    func testServerSettingsTimingAndOverride() {
        XCTAssertEqual(ServerSettings.Timing.parse("recorded"), .recorded)
        XCTAssertEqual(ServerSettings.Timing.parse("40ms"), .fixed(milliseconds: 40))
        XCTAssertEqual(ServerSettings.Timing.parse("12.5"), .fixed(milliseconds: 12.5))
        XCTAssertNil(ServerSettings.Timing.parse("-1"))
        XCTAssertNil(ServerSettings.Timing.parse("fast"))
        let app = ServerSettings(fixtures: "/app/fixtures", timing: .fixed(milliseconds: 10))
        let merged = app.overridden(by: ServerSettings(har: "/s.har"))
        XCTAssertEqual(merged.har, "/s.har")
        XCTAssertNil(merged.fixtures, "a scenario's responses replace the app's")
        XCTAssertEqual(merged.timing, .fixed(milliseconds: 10), "timing kept where the scenario leaves it")
    }
}
