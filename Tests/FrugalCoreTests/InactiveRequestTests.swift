import XCTest
@testable import FrugalCore

/// `lifecycle.quiesce-when-inactive` leaves out the moments of an interruption when a network
/// request was in flight, as the guide allows ("You can continue processing network requests
/// ... while inactive"), and still charges a timer left running beside it (RunAnalysis+Inactive).
final class InactiveRequestTests: XCTestCase {
    typealias Lifecycle = LifecycleAnalysisTests
    static let s = Lifecycle.s, ms = Lifecycle.ms

    /// A 3 s interruption (2 s to 5 s) sampled every 0.5 s. The client's thread (101) wakes 1,000
    /// times a slice while a download is in flight (`requestEnd`: its last byte, seconds since
    /// exec; its result's hand-off is 0.2 s more); a timer on the main thread (100) wakes
    /// `timerPerSlice` times in every slice.
    static func record(requestEnd: Double?, timerPerSlice: Int) -> RunRecord {
        let times = stride(from: 2 * s, through: 5 * s, by: Int(500 * ms)).map { $0 }
        var main = 0, client = 0
        var samples: [ProcessSample] = []
        for (index, time) in times.enumerated() {
            if index > 0 {
                main += timerPerSlice
                if let requestEnd, Double(times[index - 1]) / 1e9 < requestEnd + RunAnalysis.responseHandOffSeconds { client += 1000 }
            }
            samples.append(Lifecycle.sample(time, [(100, main, 0), (101, client, 0)]))
        }
        let interrupt = StepRecord(index: 1, step: .interrupt(seconds: 3), start: 2 * s, end: 5 * s, phaseStart: 2 * s,
                                   sampleAtStart: samples.first, sampleAtEnd: samples.last)
        var record = Lifecycle.record(events: [Lifecycle.state(1 * s, .active, .inactive), Lifecycle.state(5 * s, .inactive, .active)],
                                      steps: [interrupt], samples: Array(samples.dropFirst().dropLast()), end: 6 * s)
        if let requestEnd {
            var network = NetworkRecord(proxyAddress: "127.0.0.1:1", radio: .lte, trace: ProxyTrace(), origin: OriginStatistics(),
                                        conditions: [], faults: [])
            network.requests = [OtherHandAuditTests.wire("/episode", 1.9, requestEnd, down: 1_500_000)]
            record.network = network
        }
        return record
    }

    static func audit(_ record: RunRecord) -> AuditResult? {
        let analysis = RunAnalysis(record)
        return Audits.evaluate(analysis, metrics: MetricExtraction.metrics(of: analysis))["lifecycle.quiesce-when-inactive"]
    }

    func testADownloadRunningThroughAnInterruptionIsNotCharged() throws {
        // In flight to 3.2 s (3.4 s with its hand-off): the slices from 2 s to 3.5 s are left out;
        // the 1.5 s after them, with no wakeup, are judged.
        let good = try XCTUnwrap(Self.audit(Self.record(requestEnd: 3.2, timerPerSlice: 0)))
        XCTAssertEqual(good.numericValue, 0, good.displayValue)
        XCTAssertEqual(good.score, 1)
        XCTAssertTrue(good.evidence.first?.description.contains("1.5 s a network request in flight") ?? false,
                      good.evidence.first?.description ?? "")
        // Without the allowance, its 3,000 wakeups in 3 s read 1,000 a second.
        let withoutRequests = RunAnalysis(Self.record(requestEnd: 3.2, timerPerSlice: 0))
        XCTAssertEqual(withoutRequests.inactivePhases.first?.wakeups, 3000)
    }

    func testATimerLeftRunningBesideTheDownloadIsStillCharged() throws {
        // 12 wakeups every 0.5 s (24 a second), 36 of them in the 1.5 s judged.
        let bad = try XCTUnwrap(Self.audit(Self.record(requestEnd: 3.2, timerPerSlice: 12)))
        XCTAssertEqual(try XCTUnwrap(bad.numericValue), 24, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(bad.score), 0.5)
        // With no request at all, the whole interruption is judged, as before.
        let plain = try XCTUnwrap(Self.audit(Self.record(requestEnd: nil, timerPerSlice: 12)))
        XCTAssertEqual(try XCTUnwrap(plain.numericValue), 24, accuracy: 1e-9)
    }

    func testAnInterruptionSpentWaitingOnARequestIsNotApplicableAndSaysWhy() throws {
        // In flight past the interruption's end: nothing is left to judge.
        let waiting = try XCTUnwrap(Self.audit(Self.record(requestEnd: 5.5, timerPerSlice: 12)))
        XCTAssertEqual(waiting.scoreDisplayMode, .notApplicable)
        XCTAssertTrue(waiting.explanation?.contains("You can continue processing network requests") ?? false, waiting.explanation ?? "")
        // Less than a second beside it (to 4.2 s, with its hand-off 4.4 s: 0.5 s judged) is too little for a rate.
        let short = try XCTUnwrap(Self.audit(Self.record(requestEnd: 4.2, timerPerSlice: 12)))
        XCTAssertEqual(short.scoreDisplayMode, .notApplicable)
    }
}
