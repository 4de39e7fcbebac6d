import XCTest
@testable import FrugalCore

/// Drawing seen from outside (`RunAnalysis+Drawing`): an active app's main thread waking at a
/// frame rate is not polling; its other threads, a slower main thread, and an inactive app are.
final class IdleDrawingTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000

    /// A 4 s wait from 2 s, sampled every 0.2 s: thread 100 (the main thread: pid 100) and 101,
    /// each with its wakeups per slice; the app in `state` from 1.3 s.
    static func record(main: [Int], other: [Int], state: AppState) -> RunRecord {
        var record = RunAnalysisTests.record()
        let start = record.startTime
        var mainTotal = 0, otherTotal = 0
        let samples = (0...main.count).map { index -> ProcessSample in
            if index > 0 { mainTotal += main[index - 1]; otherTotal += other[index - 1] }
            return RunAnalysisTests.sample(start + 2 * s + UInt64(index) * s / 5, [(100, mainTotal), (101, otherTotal)])
        }
        let end = start + 2 * s + UInt64(main.count) * s / 5
        record.steps[1] = StepRecord(index: 1, step: .wait(seconds: Double(main.count) / 5), start: start + 2 * s, end: end,
                                     phaseStart: start + 2 * s, sampleAtStart: samples[0], sampleAtEnd: samples[main.count])
        record.samples = samples
        record.events.append(WorkloadEvent(time: start + 1300 * 1_000_000, body: .stateChanged(StateChange(from: .inactive, to: state))))
        return record
    }

    /// A clock redrawn 25 times a second from a Foundation Timer (5 wakeups per 0.2 s slice on the
    /// main thread) while active, with a 2 Hz poller on another thread beside it: the main
    /// thread's wakeups are drawing, the poller's are charged.
    func testAnActiveMainThreadAtAFrameRateIsDrawingButAPollerBesideItIsNot() throws {
        let record = Self.record(main: Array(repeating: 5, count: 20), other: [1, 0, 1, 0, 0] + [1, 0, 1, 0, 0] + [1, 0, 1, 0, 0] + [1, 0, 1, 0, 0],
                                 state: .active)
        let analysis = RunAnalysis(record)
        XCTAssertEqual(analysis.drawingSpans.count, 1)
        let account = try XCTUnwrap(analysis.idleAccounts.first)
        XCTAssertEqual(account.idleSeconds, 4, accuracy: 1e-9)
        XCTAssertEqual(account.drawingWakeups, 100)
        XCTAssertEqual(account.idleWakeups, 8, "the other thread's 2 Hz checks are still polling")
        let metrics = MetricExtraction.metrics(of: analysis)
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.cpuIdleWakeupsPerSecond]?.value), 2, accuracy: 1e-9)
    }

    /// The same main thread while the app is inactive is not drawing for anyone: charged.
    func testTheSameWakeupsWhileInactiveAreCharged() throws {
        let record = Self.record(main: Array(repeating: 5, count: 20), other: Array(repeating: 0, count: 20), state: .inactive)
        let analysis = RunAnalysis(record)
        XCTAssertTrue(analysis.drawingSpans.isEmpty)
        XCTAssertEqual(try XCTUnwrap(analysis.idleAccounts.first).idleWakeups, 100)
    }

    /// A 1 Hz main-thread timer whose check hands its result back to the main thread makes two
    /// wakeups in one slice (10/s for that slice) and none in the next four: not a frame rate
    /// kept up for half a second, so every one is charged. A 5 Hz main-thread poller (one per
    /// slice) is under the frame rate in every slice: charged too.
    func testTimersSlowerThanAFrameRateArePolling() throws {
        let oneHertz = Self.record(main: Array([2, 0, 0, 0, 0].repeated(4)), other: Array(repeating: 0, count: 20), state: .active)
        XCTAssertTrue(RunAnalysis(oneHertz).drawingSpans.isEmpty)
        XCTAssertEqual(try XCTUnwrap(RunAnalysis(oneHertz).idleAccounts.first).idleWakeups, 8)
        let fiveHertz = Self.record(main: Array(repeating: 1, count: 20), other: Array(repeating: 0, count: 20), state: .active)
        XCTAssertTrue(RunAnalysis(fiveHertz).drawingSpans.isEmpty)
        XCTAssertEqual(try XCTUnwrap(RunAnalysis(fiveHertz).idleAccounts.first).idleWakeups, 20)
    }

    /// A black-box program has something to draw on only through a display server its
    /// environment names: without one, its main thread at 25 wakeups a second while active is a
    /// loop sleeping between checks, charged in full and said so; with `DISPLAY`, drawing.
    func testAProgramWithNoDisplayIsNotDrawing() throws {
        var record = Self.record(main: Array(repeating: 5, count: 20), other: Array(repeating: 0, count: 20), state: .active)
        record.blackBox = true
        let headless = RunAnalysis(record)
        XCTAssertFalse(headless.canDraw)
        XCTAssertEqual(headless.frameRateSpans.count, 1)
        XCTAssertTrue(headless.drawingSpans.isEmpty)
        XCTAssertEqual(try XCTUnwrap(headless.idleAccounts.first).idleWakeups, 100)
        let audit = try XCTUnwrap(Audits.evaluate(headless, metrics: MetricExtraction.metrics(of: headless))["power.avoid-polling"])
        XCTAssertLessThan(try XCTUnwrap(audit.score), 0.1)
        XCTAssertTrue(audit.evidence.contains { $0.description.contains("named no display server") }, "\(audit.evidence)")

        record.displayServer = "DISPLAY=:0"
        let windowed = RunAnalysis(record)
        XCTAssertTrue(windowed.canDraw)
        XCTAssertEqual(windowed.drawingSpans.count, 1)
        XCTAssertEqual(try XCTUnwrap(windowed.idleAccounts.first).idleWakeups, 0)
    }

    /// Two slices at a frame rate (0.4 s) are under the half second needed; three (0.6 s) are not.
    func testAStretchMustLastHalfASecond() {
        let short = Self.record(main: [0, 5, 5, 0, 0, 0, 0, 0, 0, 0], other: Array(repeating: 0, count: 10), state: .active)
        XCTAssertTrue(RunAnalysis(short).drawingSpans.isEmpty)
        let long = Self.record(main: [0, 5, 5, 5, 0, 0, 0, 0, 0, 0], other: Array(repeating: 0, count: 10), state: .active)
        XCTAssertEqual(RunAnalysis(long).drawingSpans.count, 1)
    }
}

private extension Array {
    func repeated(_ times: Int) -> [Element] { (0..<times).flatMap { _ in self } }
}
