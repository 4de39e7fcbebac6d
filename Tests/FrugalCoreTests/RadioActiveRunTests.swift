import XCTest
@testable import FrugalCore

/// Traffic shapes shared by the radio tests.
enum RadioFixture {
    /// One request/response: 1,000 B up at `t`, then a 500,000 B response in two
    /// 250,000 B halves at t + 1/16 s and t + 1/8 s. Times are binary-exact, the
    /// chunks are closer than every built-in hold, so each transfer is one active
    /// run of exactly 0.125 s carrying 0.008 Mbit up and 4 Mbit down.
    static func transfer(at t: Double, connection: Int = 1) -> [TrafficChunk] {
        [
            TrafficChunk(connection: connection, direction: .uplink, time: t, bytes: 1_000),
            TrafficChunk(connection: connection, direction: .downlink, time: t + 0.0625, bytes: 250_000),
            TrafficChunk(connection: connection, direction: .downlink, time: t + 0.125, bytes: 250_000),
        ]
    }

    /// The report's lane must start at the window's start, end at its end, and leave no gaps.
    static func assertTilesWindow(_ report: RadioReport, file: StaticString = #filePath, line: UInt = #line) {
        guard let first = report.timeline.first, let last = report.timeline.last else {
            return XCTFail("empty timeline", file: file, line: line)
        }
        XCTAssertEqual(first.start, report.window.start, file: file, line: line)
        XCTAssertEqual(last.end, report.window.end, file: file, line: line)
        for (previous, next) in zip(report.timeline, report.timeline.dropFirst()) {
            XCTAssertEqual(previous.end, next.start, "gap or overlap in lane", file: file, line: line)
        }
        XCTAssertEqual(report.seconds.total, report.window.duration, accuracy: 1e-9, file: file, line: line)
    }
}

final class RadioActiveRunTests: XCTestCase {
    func testTransferFixtureIsOneRunUnderEveryProfile() {
        for profile in RadioProfile.builtIn {
            let runs = ActiveRun.group(RadioFixture.transfer(at: 10), holdSeconds: profile.activeHoldSeconds)
            XCTAssertEqual(runs, [ActiveRun(start: 10, end: 10.125, uplinkBytes: 1_000, downlinkBytes: 500_000, chunkCount: 3)], profile.name)
        }
    }

    func testSilenceEqualToHoldKeepsOneRunAndLongerSplits() {
        // Hold 0.25 s: chunks 0.25 s apart stay together, 0.25 + 1/1024 s apart split.
        let together = [
            TrafficChunk(connection: 1, direction: .uplink, time: 1.0, bytes: 10),
            TrafficChunk(connection: 1, direction: .uplink, time: 1.25, bytes: 20),
        ]
        XCTAssertEqual(ActiveRun.group(together, holdSeconds: 0.25).count, 1)

        let apart = [
            TrafficChunk(connection: 1, direction: .uplink, time: 1.0, bytes: 10),
            TrafficChunk(connection: 1, direction: .uplink, time: 1.25 + 1.0 / 1024, bytes: 20),
        ]
        XCTAssertEqual(ActiveRun.group(apart, holdSeconds: 0.25).count, 2)
    }

    func testUnsortedInputIsGroupedInTimeOrder() {
        let chunks = [
            TrafficChunk(connection: 2, direction: .downlink, time: 5.0, bytes: 7),
            TrafficChunk(connection: 1, direction: .uplink, time: 1.0, bytes: 3),
        ]
        XCTAssertEqual(ActiveRun.group(chunks, holdSeconds: 0.1), [
            ActiveRun(start: 1, end: 1, uplinkBytes: 3, downlinkBytes: 0, chunkCount: 1),
            ActiveRun(start: 5, end: 5, uplinkBytes: 0, downlinkBytes: 7, chunkCount: 1),
        ])
    }
}
