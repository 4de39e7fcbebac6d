import XCTest
@testable import FrugalCore

/// Wi-Fi figures used below, all from `RadioProfile.wifi`:
///   no promotion (a wake counts as a zero-length promotion)
///   one transfer's active run 0.125 s × 0.403 W = 0.050375 J
///   tail 0.25 s × 0.403 W                      = 0.10075 J
///   standby 0.02 W
final class RadioWiFiModelTests: XCTestCase {
    let model = RadioProfile.wifi.model
    let window = ObservationWindow(start: 0, end: 60)

    func testOneTransfer() {
        let report = model.report(for: RadioFixture.transfer(at: 10), window: window)
        // attributed 0.050375 + 0.10075 = 0.151125 J
        // standby 60 − 0.375 = 59.625 s × 0.02 = 1.1925 J; total 1.343625 J
        XCTAssertEqual(report.promotions, 1)
        XCTAssertEqual(report.seconds.promotion, 0)
        XCTAssertEqual(report.tailSeconds, 0.25, accuracy: 1e-9)
        XCTAssertEqual(report.attributedJoules, 0.151125, accuracy: 1e-9)
        XCTAssertEqual(report.joules.idle, 1.1925, accuracy: 1e-9)
        XCTAssertEqual(report.totalJoules, 1.343625, accuracy: 1e-9)
        XCTAssertEqual(report.timeline.map(\.state), [.idle, .active, .tail, .idle])
        RadioFixture.assertTilesWindow(report)
    }

    func testTwoTransfersFiveSecondsApartWakeTwice() {
        let chunks = RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 15)
        let report = model.report(for: chunks, window: window)
        // 4.875 s silence ≫ 0.25 s tail: two separate wakes.
        // attributed 2 × 0.151125 = 0.30225 J
        // standby 60 − 0.75 = 59.25 s × 0.02 = 1.185 J; total 1.48725 J
        XCTAssertEqual(report.promotions, 2)
        XCTAssertEqual(report.attributedJoules, 0.30225, accuracy: 1e-9)
        XCTAssertEqual(report.totalJoules, 1.48725, accuracy: 1e-9)
        RadioFixture.assertTilesWindow(report)
    }

    func testTwoTransfersTwentySecondsApartCostTheSameAsFiveApart() {
        let chunks = RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 30)
        let report = model.report(for: chunks, window: window)
        // Same two wakes as five seconds apart: attributed 0.30225 J, total 1.48725 J.
        XCTAssertEqual(report.promotions, 2)
        XCTAssertEqual(report.radioActiveSeconds, 0.75, accuracy: 1e-9)
        XCTAssertEqual(report.attributedJoules, 0.30225, accuracy: 1e-9)
        XCTAssertEqual(report.totalJoules, 1.48725, accuracy: 1e-9)
        RadioFixture.assertTilesWindow(report)
    }
}
