import XCTest
@testable import FrugalCore

/// LTE figures used below, all from `RadioProfile.lte`:
///   promotion  0.2601 s × 1.2107 W                        = 0.31490307 J
///   one transfer's active run (0.125 s, 0.008 Mbit up, 4 Mbit down):
///              0.125 × 1.28804 + 0.43839 × 0.008 + 0.05197 × 4
///            = 0.161005 + 0.00350712 + 0.20788            = 0.37239212 J
///   full tail  11.576 s × 1.06 W                          = 12.27056 J
///   idle power 0.594 W × 0.043 s / 1.28 s                 = 0.0199546875 W
final class RadioLTEModelTests: XCTestCase {
    let model = RadioProfile.lte.model
    let window = ObservationWindow(start: 0, end: 60)

    func testOneTransfer() {
        let report = model.report(for: RadioFixture.transfer(at: 10), window: window)
        // promotion [9.7399, 10], active [10, 10.125], tail [10.125, 21.701]
        // idle 60 − 0.2601 − 0.125 − 11.576 = 48.0389 s × 0.0199546875 W = 0.95860123734375 J
        // attributed 0.31490307 + 0.37239212 + 12.27056 = 12.95785519 J
        // total 12.95785519 + 0.95860123734375 = 13.91645642734375 J
        XCTAssertEqual(report.promotions, 1)
        XCTAssertEqual(report.seconds.promotion, 0.2601, accuracy: 1e-9)
        XCTAssertEqual(report.seconds.active, 0.125, accuracy: 1e-9)
        XCTAssertEqual(report.tailSeconds, 11.576, accuracy: 1e-9)
        XCTAssertEqual(report.seconds.idle, 48.0389, accuracy: 1e-9)
        XCTAssertEqual(report.joules.promotion, 0.31490307, accuracy: 1e-9)
        XCTAssertEqual(report.joules.active, 0.37239212, accuracy: 1e-9)
        XCTAssertEqual(report.joules.tail, 12.27056, accuracy: 1e-9)
        XCTAssertEqual(report.joules.idle, 0.95860123734375, accuracy: 1e-9)
        XCTAssertEqual(report.attributedJoules, 12.95785519, accuracy: 1e-9)
        XCTAssertEqual(report.totalJoules, 13.91645642734375, accuracy: 1e-9)
        XCTAssertEqual(report.radioActiveSeconds, 11.9611, accuracy: 1e-9)
        XCTAssertEqual(report.uplinkBytes, 1_000)
        XCTAssertEqual(report.downlinkBytes, 500_000)
        XCTAssertEqual(report.timeline.map(\.state), [.idle, .promotion, .active, .tail, .idle])
        XCTAssertEqual(report.timeline[1].start, 9.7399, accuracy: 1e-9)
        XCTAssertEqual(report.timeline[3].end, 21.701, accuracy: 1e-9)
        RadioFixture.assertTilesWindow(report)
    }

    func testTwoTransfersFiveSecondsApartShareOnePromotion() {
        let chunks = RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 15)
        let report = model.report(for: chunks, window: window)
        // The second transfer starts 15 − 10.125 = 4.875 s into the tail: no promotion.
        // tail between: 4.875 s × 1.06 = 5.1675 J; final tail 12.27056 J
        // attributed 0.31490307 + 2 × 0.37239212 + 5.1675 + 12.27056 = 18.49774731 J
        // idle 60 − (0.2601 + 0.25 + 4.875 + 11.576) = 43.0389 s × 0.0199546875 = 0.85882779984375 J
        // total 18.49774731 + 0.85882779984375 = 19.35657510984375 J
        XCTAssertEqual(report.promotions, 1)
        XCTAssertEqual(report.tailSeconds, 16.451, accuracy: 1e-9)
        XCTAssertEqual(report.joules.tail, 17.43806, accuracy: 1e-9)
        XCTAssertEqual(report.attributedJoules, 18.49774731, accuracy: 1e-9)
        XCTAssertEqual(report.totalJoules, 19.35657510984375, accuracy: 1e-9)
        XCTAssertEqual(report.timeline.map(\.state), [.idle, .promotion, .active, .tail, .active, .tail, .idle])
        RadioFixture.assertTilesWindow(report)
    }

    func testTwoTransfersTwentySecondsApartPromoteTwice() {
        let chunks = RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 30)
        let report = model.report(for: chunks, window: window)
        // 30 − 10.125 = 19.875 s > 11.576 s tail: idle [21.701, 29.7399], promote again.
        // attributed 2 × 12.95785519 = 25.91571038 J
        // idle 60 − 2 × 11.9611 = 36.0778 s × 0.0199546875 = 0.7199212246875 J
        // total 25.91571038 + 0.7199212246875 = 26.6356316046875 J
        XCTAssertEqual(report.promotions, 2)
        XCTAssertEqual(report.joules.promotion, 0.62980614, accuracy: 1e-9)
        XCTAssertEqual(report.attributedJoules, 25.91571038, accuracy: 1e-9)
        XCTAssertEqual(report.totalJoules, 26.6356316046875, accuracy: 1e-9)
        XCTAssertEqual(report.promotionsPerMinute, 2, accuracy: 1e-12)
        XCTAssertEqual(report.timeline.map(\.state), [.idle, .promotion, .active, .tail, .idle, .promotion, .active, .tail, .idle])
        RadioFixture.assertTilesWindow(report)
    }

    func testPromotionIsCutShortByTheWindowStart() {
        // A lone 125,000 B downlink chunk at 0.1 s: only 0.1 s of promotion lies in the window.
        // promotion 0.1 × 1.2107 = 0.12107 J; active 0 s, 1 Mbit down × 0.05197 = 0.05197 J
        let chunk = TrafficChunk(connection: 1, direction: .downlink, time: 0.1, bytes: 125_000)
        let report = model.report(for: [chunk], window: window)
        XCTAssertEqual(report.promotions, 1)
        XCTAssertEqual(report.seconds.promotion, 0.1, accuracy: 1e-9)
        XCTAssertEqual(report.joules.promotion, 0.12107, accuracy: 1e-9)
        XCTAssertEqual(report.seconds.active, 0, accuracy: 1e-12)
        XCTAssertEqual(report.joules.active, 0.05197, accuracy: 1e-9)
        RadioFixture.assertTilesWindow(report)
    }

    func testTailIsClippedAtTheWindowEndAndOutsideChunksAreIgnored() {
        let chunks = RadioFixture.transfer(at: 50) + [TrafficChunk(connection: 9, direction: .uplink, time: 70, bytes: 1)]
        let report = model.report(for: chunks, window: window)
        // tail [50.125, 60] = 9.875 s × 1.06 = 10.4675 J; the chunk at 70 s is outside the window.
        XCTAssertEqual(report.tailSeconds, 9.875, accuracy: 1e-9)
        XCTAssertEqual(report.joules.tail, 10.4675, accuracy: 1e-9)
        XCTAssertEqual(report.uplinkBytes, 1_000)
        RadioFixture.assertTilesWindow(report)
    }

    func testNoTrafficIsAllIdle() {
        // 60 s × 0.0199546875 W = 1.19728125 J
        let report = model.report(for: [], window: window)
        XCTAssertEqual(report.promotions, 0)
        XCTAssertEqual(report.attributedJoules, 0)
        XCTAssertEqual(report.totalJoules, 1.19728125, accuracy: 1e-9)
        RadioFixture.assertTilesWindow(report)
    }
}
