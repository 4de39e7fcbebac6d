import XCTest
@testable import FrugalCore

/// 3G figures used below, all from `RadioProfile.threeG`:
///   IDLE→DCH promotion 2.0 s × 0.53 W   = 1.06 J
///   FACH→DCH promotion 1.5 s × 0.55 W   = 0.825 J
///   one transfer's DCH run 0.125 s × 0.7 W = 0.0875 J
///   DCH tail 5 s × 0.7 W                 = 3.5 J
///   FACH 12 s × 0.35 W                   = 4.2 J
///   idle 0 W
final class RadioThreeGModelTests: XCTestCase {
    let model = RadioProfile.threeG.model
    let window = ObservationWindow(start: 0, end: 60)

    func testOneTransfer() {
        let report = model.report(for: RadioFixture.transfer(at: 10), window: window)
        // idle [0, 8], IDLE→DCH [8, 10], DCH [10, 10.125], DCH tail [10.125, 15.125],
        // FACH [15.125, 27.125], idle [27.125, 60]
        // attributed 1.06 + 0.0875 + 3.5 + 4.2 = 8.8475 J; idle adds nothing.
        XCTAssertEqual(report.promotions, 1)
        XCTAssertEqual(report.seconds.promotion, 2, accuracy: 1e-9)
        XCTAssertEqual(report.tailSeconds, 17, accuracy: 1e-9)
        XCTAssertEqual(report.radioActiveSeconds, 19.125, accuracy: 1e-9)
        XCTAssertEqual(report.joules.tail, 7.7, accuracy: 1e-9)
        XCTAssertEqual(report.attributedJoules, 8.8475, accuracy: 1e-9)
        XCTAssertEqual(report.totalJoules, 8.8475, accuracy: 1e-9)
        XCTAssertEqual(report.timeline.map(\.rrcState), ["IDLE", "IDLE→DCH", "DCH", "DCH tail", "FACH tail", "IDLE"])
        RadioFixture.assertTilesWindow(report)
    }

    func testTwoTransfersFiveSecondsApartStayInDCH() {
        let chunks = RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 15)
        let report = model.report(for: chunks, window: window)
        // The 4.875 s silence is under the 5 s DCH timer, so it is DCH time: one run [10, 15.125].
        // DCH 5.125 s × 0.7 = 3.5875 J
        // attributed 1.06 + 3.5875 + 3.5 + 4.2 = 12.3475 J
        XCTAssertEqual(report.promotions, 1)
        XCTAssertEqual(report.seconds.active, 5.125, accuracy: 1e-9)
        XCTAssertEqual(report.joules.active, 3.5875, accuracy: 1e-9)
        XCTAssertEqual(report.attributedJoules, 12.3475, accuracy: 1e-9)
        RadioFixture.assertTilesWindow(report)
    }

    func testTwoTransfersTwentySecondsApartPromoteFromIdleTwice() {
        let chunks = RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 30)
        let report = model.report(for: chunks, window: window)
        // 30 − 10.125 = 19.875 s > 5 + 12 s: idle [27.125, 28], IDLE→DCH [28, 30].
        // attributed 2 × 8.8475 = 17.695 J
        XCTAssertEqual(report.promotions, 2)
        XCTAssertEqual(report.seconds.promotion, 4, accuracy: 1e-9)
        XCTAssertEqual(report.attributedJoules, 17.695, accuracy: 1e-9)
        XCTAssertEqual(report.seconds.idle, 60 - 2 * 19.125, accuracy: 1e-9)
        RadioFixture.assertTilesWindow(report)
    }

    func testTransferDuringFACHPaysTheShorterPromotion() {
        let chunks = RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 22)
        let report = model.report(for: chunks, window: window)
        // 22 − 10.125 = 11.875 s: past the 5 s DCH tail, inside the 12 s of FACH.
        // DCH tail [10.125, 15.125] 3.5 J; FACH [15.125, 20.5] 5.375 s × 0.35 = 1.88125 J;
        // FACH→DCH [20.5, 22] 0.825 J; second DCH run 0.0875 J; final DCH tail + FACH 7.7 J.
        // attributed 1.06 + 0.0875 + 3.5 + 1.88125 + 0.825 + 0.0875 + 7.7 = 15.14125 J
        XCTAssertEqual(report.promotions, 2)
        XCTAssertEqual(report.seconds.promotion, 3.5, accuracy: 1e-9)
        XCTAssertEqual(report.tailSeconds, 27.375, accuracy: 1e-9)
        XCTAssertEqual(report.joules.promotion, 1.885, accuracy: 1e-9)
        XCTAssertEqual(report.attributedJoules, 15.14125, accuracy: 1e-9)
        XCTAssertEqual(report.timeline.map(\.rrcState), [
            "IDLE", "IDLE→DCH", "DCH", "DCH tail", "FACH tail", "FACH→DCH", "DCH", "DCH tail", "FACH tail", "IDLE",
        ])
        RadioFixture.assertTilesWindow(report)
    }
}
