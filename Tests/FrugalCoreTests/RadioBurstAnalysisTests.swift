import XCTest
@testable import FrugalCore

final class RadioBurstAnalysisTests: XCTestCase {
    /// A poll: 200 B up at `t`, 800 B down half a second later.
    private func poll(at t: Double, connection: Int = 1) -> [TrafficChunk] {
        [
            TrafficChunk(connection: connection, direction: .uplink, time: t, bytes: 200),
            TrafficChunk(connection: connection, direction: .downlink, time: t + 0.5, bytes: 800),
        ]
    }

    private func analysis(pollsAt times: [Double]) -> BurstAnalysis {
        BurstAnalysis(chunks: times.flatMap { poll(at: $0) })
    }

    func testSilenceOfExactlyOnePointFiveSecondsKeepsOneBurst() {
        // 11.5 − 10.0 = 1.5 s, not longer than BURST_TH: one burst (ARO splits on gap > 1.5 s).
        let chunks = [
            TrafficChunk(connection: 2, direction: .downlink, time: 11.5, bytes: 300),
            TrafficChunk(connection: 1, direction: .uplink, time: 10.0, bytes: 100),
        ]
        let bursts = BurstAnalysis.bursts(in: chunks, silenceSeconds: 1.5)
        XCTAssertEqual(bursts, [
            Burst(start: 10, end: 11.5, uplinkBytes: 100, downlinkBytes: 300, chunkCount: 2, connections: [1, 2]),
        ])
    }

    func testSilenceJustOverOnePointFiveSecondsSplits() {
        // 1.5 + 1/1024 s apart: two bursts.
        let chunks = [
            TrafficChunk(connection: 1, direction: .uplink, time: 10.0, bytes: 100),
            TrafficChunk(connection: 2, direction: .downlink, time: 11.5 + 1.0 / 1024, bytes: 300),
        ]
        let bursts = BurstAnalysis.bursts(in: chunks, silenceSeconds: 1.5)
        XCTAssertEqual(bursts, [
            Burst(start: 10, end: 10, uplinkBytes: 100, downlinkBytes: 0, chunkCount: 1, connections: [1]),
            Burst(start: 11.5009765625, end: 11.5009765625, uplinkBytes: 0, downlinkBytes: 300, chunkCount: 1, connections: [2]),
        ])
    }

    func testTwelveSecondCycleIsPeriodic() {
        // Starts 5, 17, 29, 41: gaps 12, 12, 12, median 12 > 10 s.
        let result = analysis(pollsAt: [5, 17, 29, 41])
        XCTAssertEqual(result.bursts.count, 4)
        XCTAssertEqual(result.bursts[0], Burst(start: 5, end: 5.5, uplinkBytes: 200, downlinkBytes: 800, chunkCount: 2, connections: [1]))
        XCTAssertEqual(result.periodicGroups.count, 1)
        XCTAssertEqual(result.periodicGroups.first?.cycleSeconds, 12)
        XCTAssertEqual(result.periodicGroups.first?.bursts.map(\.start), [5, 17, 29, 41])
        XCTAssertTrue(result.hasPeriodicTransfers)
    }

    func testJitterWithinOneSecondIsStillPeriodic() {
        // Gaps 12, 12.5, 11.75; median 12; every gap within ±1 s of it.
        let result = analysis(pollsAt: [0, 12, 24.5, 36.25])
        XCTAssertEqual(result.periodicGroups.map(\.cycleSeconds), [12])
        XCTAssertEqual(result.periodicGroups.first?.bursts.count, 4)
    }

    func testIrregularGapsAreNotPeriodic() {
        // Gaps 12, 8, 15, 6: no three consecutive bursts have both gaps within 1 s of their median.
        let result = analysis(pollsAt: [5, 17, 25, 40, 46])
        XCTAssertEqual(result.bursts.count, 5)
        XCTAssertFalse(result.hasPeriodicTransfers)
    }

    func testCycleMustBeLongerThanTenSeconds() {
        // Perfectly regular, but 10 s is not longer than PERIOD_MIN_CYCLE, and 5 s even less so.
        XCTAssertFalse(analysis(pollsAt: [0, 10, 20, 30]).hasPeriodicTransfers)
        XCTAssertFalse(analysis(pollsAt: [0, 5, 10, 15, 20]).hasPeriodicTransfers)
    }

    func testTwoBurstsAreTooFewAndAnOutlierIsLeftOut() {
        XCTAssertFalse(analysis(pollsAt: [0, 12]).hasPeriodicTransfers)
        // Gaps 12, 12, 12, 4: the group stops before the burst at 40 s.
        let result = analysis(pollsAt: [0, 12, 24, 36, 40])
        XCTAssertEqual(result.periodicGroups.count, 1)
        XCTAssertEqual(result.periodicGroups.first?.bursts.map(\.start), [0, 12, 24, 36])
    }

    func testPromotionsPerMinuteForPolling() {
        let window = ObservationWindow(start: 0, end: 120)
        // Polls every 20 s at 10, 30, …, 110: each 19.5 s silence outlasts the 11.576 s LTE tail,
        // so 6 promotions in 2 minutes = 3 per minute.
        let every20 = stride(from: 10.0, through: 110, by: 20).flatMap { poll(at: $0) }
        XCTAssertEqual(BurstAnalysis.promotionsPerMinute(of: every20, profile: .lte, window: window), 3, accuracy: 1e-12)
        // Polls every 5 s stay inside the tail: 1 promotion in 2 minutes = 0.5 per minute.
        let every5 = stride(from: 10.0, through: 110, by: 5).flatMap { poll(at: $0) }
        XCTAssertEqual(BurstAnalysis.promotionsPerMinute(of: every5, profile: .lte, window: window), 0.5, accuracy: 1e-12)
    }
}
