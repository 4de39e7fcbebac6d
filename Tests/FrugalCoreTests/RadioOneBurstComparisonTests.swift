import XCTest
@testable import FrugalCore

/// LTE figures (see RadioLTEModelTests): promotion 0.31490307 J, full tail 12.27056 J.
final class RadioOneBurstComparisonTests: XCTestCase {
    let window = ObservationWindow(start: 0, end: 60)

    func testTrickleCostsAtLeastThreeTimesOneBurstUnderLTE() {
        // Ten 200 B uplink messages every 3 s from t = 1 to t = 28.
        let trickle = (0..<10).map {
            TrafficChunk(connection: 1, direction: .uplink, time: 1 + 3 * Double($0), bytes: 200)
        }
        let comparison = OneBurstComparison(chunks: trickle, profile: .lte, window: window)
        // Each message: 0 s active, 0.0016 Mbit × 0.43839 = 0.000701424 J; ten of them 0.00701424 J.
        // Trace: one promotion (3 s gaps stay inside the tail), nine 3 s tails, one full tail:
        //   0.31490307 + 27 × 1.06 + 12.27056 + 0.00701424 = 41.21247731 J
        // One burst at t = 1: 0.31490307 + 0.00701424 + 12.27056 = 12.59247731 J
        // Ratio 41.21247731 / 12.59247731 ≈ 3.2728
        XCTAssertEqual(comparison.trace.promotions, 1)
        XCTAssertEqual(comparison.oneBurst.promotions, 1)
        XCTAssertEqual(comparison.trace.attributedJoules, 41.21247731, accuracy: 1e-9)
        XCTAssertEqual(comparison.oneBurst.attributedJoules, 12.59247731, accuracy: 1e-9)
        XCTAssertEqual(comparison.energyRatio, 41.21247731 / 12.59247731, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(comparison.energyRatio, 3)
        XCTAssertEqual(comparison.excessJoules, 28.62, accuracy: 1e-9)
        // Radio up: trace 0.2601 + 27 + 11.576 = 38.8361 s; burst 0.2601 + 11.576 = 11.8361 s.
        XCTAssertEqual(comparison.trace.radioActiveSeconds, 38.8361, accuracy: 1e-9)
        XCTAssertEqual(comparison.oneBurst.radioActiveSeconds, 11.8361, accuracy: 1e-9)
        XCTAssertEqual(comparison.excessRadioActiveSeconds, 27, accuracy: 1e-9)
    }

    func testEnqueueTogetherUnderLTEKeepsActiveTimeAndBytes() {
        let chunks = RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 30)
        let comparison = OneBurstComparison(chunks: chunks, profile: .lte, window: window)
        // Burst: one run [10, 10.25] with 0.016 Mbit up and 8 Mbit down, same throughput as the trace.
        //   active 0.25 × 1.28804 + 0.43839 × 0.016 + 0.05197 × 8 = 0.32201 + 0.00701424 + 0.41576 = 0.74478424 J
        //   attributed 0.31490307 + 0.74478424 + 12.27056 = 13.33024731 J (trace: 25.91571038 J)
        // Radio up: trace 2 × (0.2601 + 0.125 + 11.576) = 23.9222 s; burst 0.2601 + 0.25 + 11.576 = 12.0861 s.
        XCTAssertEqual(comparison.oneBurst.seconds.active, comparison.trace.seconds.active, accuracy: 1e-12)
        XCTAssertEqual(comparison.oneBurst.joules.active, comparison.trace.joules.active, accuracy: 1e-12)
        XCTAssertEqual(comparison.oneBurst.downlinkBytes, 1_000_000)
        XCTAssertEqual(comparison.oneBurst.attributedJoules, 13.33024731, accuracy: 1e-9)
        XCTAssertEqual(comparison.energyRatio, 25.91571038 / 13.33024731, accuracy: 1e-9)
        XCTAssertEqual(comparison.trace.radioActiveSeconds, 23.9222, accuracy: 1e-9)
        XCTAssertEqual(comparison.oneBurst.radioActiveSeconds, 12.0861, accuracy: 1e-9)
        XCTAssertEqual(comparison.radioActiveSecondsRatio, 23.9222 / 12.0861, accuracy: 1e-9)
    }

    func testEnqueueTogetherUnder3GRemovesTheFACHPromotion() {
        let chunks = RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 22)
        let comparison = OneBurstComparison(chunks: chunks, profile: .threeG, window: window)
        // Trace (see RadioThreeGModelTests): 15.14125 J; up 3.5 + 0.25 + 27.375 = 31.125 s.
        // Burst: 1.06 + 0.25 × 0.7 + 3.5 + 4.2 = 8.935 J; up 2 + 0.25 + 17 = 19.25 s.
        XCTAssertEqual(comparison.oneBurst.promotions, 1)
        XCTAssertEqual(comparison.oneBurst.attributedJoules, 8.935, accuracy: 1e-9)
        XCTAssertEqual(comparison.energyRatio, 15.14125 / 8.935, accuracy: 1e-9)
        XCTAssertEqual(comparison.trace.radioActiveSeconds, 31.125, accuracy: 1e-9)
        XCTAssertEqual(comparison.oneBurst.radioActiveSeconds, 19.25, accuracy: 1e-9)
    }

    func testNoTrafficHasNothingToSave() {
        let comparison = OneBurstComparison(chunks: [], profile: .lte, window: window)
        XCTAssertEqual(comparison.energyRatio, 1)
        XCTAssertEqual(comparison.radioActiveSecondsRatio, 1)
        XCTAssertEqual(comparison.excessJoules, 0)
    }
}
