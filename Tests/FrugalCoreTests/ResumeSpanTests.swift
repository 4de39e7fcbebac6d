import XCTest
@testable import FrugalCore

/// lifecycle.resume-fast's span: from the foreground step until the main thread is free again,
/// which includes main-thread work queued during the return that runs straight after
/// didBecomeActive, and not work scheduled for later.
final class ResumeSpanTests: XCTestCase {
    static let ms: UInt64 = 1_000_000

    /// Foreground at 1 s; willEnterForeground and didBecomeActive take 1 ms each; then `after`.
    static func resume(after: [HandlerRecord]) throws -> RunAnalysis.Resume {
        let start = 1000 * ms
        let handlers = [HandlerRecord(name: "willEnterForeground", start: start + 1 * ms, end: start + 2 * ms),
                        HandlerRecord(name: "didBecomeActive", start: start + 2 * ms + 100_000, end: start + 3 * ms)] + after
        let step = StepRecord(index: 0, step: .foreground, start: start, end: start + 5 * ms)
        let record = LifecycleAnalysisTests.record(events: handlers.map { WorkloadEvent(time: $0.end, body: .handler($0)) }, steps: [step])
        return try XCTUnwrap(RunAnalysis(record).resumes.first)
    }

    func testWorkAnObserverQueuedOnTheMainThreadIsPartOfTheReturn() throws {
        // A notification observer sent 600 ms of recomputing to the main queue: it ran in the
        // next pass, 0.1 ms after didBecomeActive, and the app answered nothing until it ended.
        let queued = HandlerRecord(name: "runloop.main", start: 1003 * Self.ms + 100_000, end: 1603 * Self.ms)
        let resume = try Self.resume(after: [queued])
        XCTAssertEqual(resume.milliseconds, 603, accuracy: 1e-9)
        XCTAssertEqual(resume.handlers.map(\.name), ["willEnterForeground", "didBecomeActive", "runloop.main"])
    }

    func testWorkScheduledForLaterIsNot() throws {
        // A frame timer's first tick 16 ms later is the app at work, not the return.
        let later = HandlerRecord(name: "runloop.main:timer", start: 1019 * Self.ms, end: 1020 * Self.ms)
        let resume = try Self.resume(after: [later])
        XCTAssertEqual(resume.milliseconds, 3, accuracy: 1e-9)
    }
}
