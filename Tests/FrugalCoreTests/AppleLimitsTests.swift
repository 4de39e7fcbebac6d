import XCTest
@testable import FrugalCore

/// Apple's enforced limits (`--rules apple-limits`) on runs built by hand, with numbers worked
/// out by hand: the time until each limit trips at the measured rate, and its source.
final class AppleLimitsTests: XCTestCase {
    /// A run of `seconds` with the given activity lane, states, hangs and metrics.
    static func run(seconds: Double, activity: [ActivitySample] = [], states: [StateInterval] = [], hangs: [HangMark]? = nil,
                    metrics: [String: MetricValue] = [:]) -> RunReport {
        var timeline = Timeline(states: states, handlers: [], steps: [], activity: activity, duration: seconds)
        timeline.hangs = hangs
        return RunReport(workload: "w", scenario: "s", repetition: 1, outcome: .completed, outcomeDetail: nil, exitStatus: nil,
                         durationSeconds: seconds, metrics: metrics, timeline: timeline, audits: [:], categories: [:], score: nil)
    }

    /// One activity sample a second for `seconds` seconds at `rate` wakeups and `cpu` CPU-seconds each.
    static func lane(from start: Double = 0, seconds: Int, wakeups rate: Int, cpu: Double = 0) -> [ActivitySample] {
        (1...seconds).map { ActivitySample(time: start + Double($0), interval: 1, wakeups: rate, cpuSeconds: cpu) }
    }

    func result(_ id: String, _ run: RunReport) throws -> AppleLimitResult {
        try XCTUnwrap(AppleLimits.evaluate(run).first { $0.id == id })
    }

    /// The case: 20 MB written in 60 s is 28.8 GB per 24 h; 2^30 bytes at 333,333 B/s
    /// take 3221 s, about 54 minutes; cited to the report text on Apple's forums.
    func testTwentyMegabytesInAMinuteWouldHitTheDiskWritesReportAfterFiftyFourMinutes() throws {
        let run = Self.run(seconds: 60, metrics: [MetricName.diskPhysicalBytesWritten: MetricValue(20_000_000, unit: "bytes", source: "proc:io.write_bytes")])
        let disk = try result("apple.disk-writes", run)
        XCTAssertEqual(disk.status, .wouldTrip)
        XCTAssertEqual(try XCTUnwrap(disk.projected), 28_800_000_000, accuracy: 1)
        XCTAssertEqual(try XCTUnwrap(disk.secondsToLimit), 1_073_741_824 / (20_000_000 / 60.0), accuracy: 0.01)
        XCTAssertTrue(disk.summary.hasPrefix("would hit the disk writes report after 54 min"), disk.summary)
        XCTAssertTrue(disk.summary.contains("20.00 MB in 60 s is 28800.00 MB per 24 h"), disk.summary)
        XCTAssertTrue(disk.source.contains("developer.apple.com/forums/thread/686854"), disk.source)
        XCTAssertEqual(disk.measuredSource, "proc:io.write_bytes")
    }

    func testFewWritesStayWithinAndMissingWritesAreUnavailable() throws {
        let small = Self.run(seconds: 60, metrics: [MetricName.diskPhysicalBytesWritten: MetricValue(100_000, unit: "bytes", source: "t")])
        XCTAssertEqual(try result("apple.disk-writes", small).status, .within, "144 MB a day is under 1073.74 MB")
        XCTAssertNil(try result("apple.disk-writes", small).secondsToLimit)
        let missing = Self.run(seconds: 60, metrics: [MetricName.diskPhysicalBytesWritten: .unavailable(unit: "bytes", source: "t", reason: "no io")])
        XCTAssertEqual(try result("apple.disk-writes", missing).status, .unavailable)
        XCTAssertTrue(try result("apple.disk-writes", missing).summary.contains("no io"))
    }

    /// 200 wakeups/s for 60 s: 45,000 wakeups take 225 s at that rate (the report's own example,
    /// 258/s, trips after 174 s: 45001 / 258).
    func testWakeupsOverTheRateWouldTripAfterTheBudgetOverTheRate() throws {
        let wakeups = try result("apple.wakeups", Self.run(seconds: 60, activity: Self.lane(seconds: 60, wakeups: 200)))
        XCTAssertEqual(wakeups.status, .wouldTrip)
        XCTAssertEqual(try XCTUnwrap(wakeups.rate), 200, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(wakeups.secondsToLimit), 225, accuracy: 1e-9)
        XCTAssertTrue(wakeups.summary.hasPrefix("would hit the wakeups report after 3.75 min"), wakeups.summary)
        XCTAssertTrue(wakeups.source.contains("forums/thread/124180"))
        let calm = try result("apple.wakeups", Self.run(seconds: 60, activity: Self.lane(seconds: 60, wakeups: 2)))
        XCTAssertEqual(calm.status, .within)
        XCTAssertNil(calm.secondsToLimit)
    }

    /// A burst of 100 s at 500/s inside 400 s: the busiest 300 s hold 50,000 + 200 × 10 = 52,000
    /// wakeups, over 45,000, though the run's average (132.5/s) is under 150/s.
    func testTheBusiestThreeHundredSecondsDecideNotTheAverage() throws {
        let activity = Self.lane(seconds: 100, wakeups: 500) + Self.lane(from: 100, seconds: 300, wakeups: 10)
        let wakeups = try result("apple.wakeups", Self.run(seconds: 400, activity: activity))
        XCTAssertEqual(wakeups.status, .exceeded)
        XCTAssertEqual(try XCTUnwrap(wakeups.measured), 52_000, accuracy: 1e-6)
    }

    /// 0.9 of a core for 30 s in the background: 48 CPU-seconds at 0.9/s take 53.3 s.
    func testBackgroundCPUOverEightyPercentWouldBeKilled() throws {
        let states = [StateInterval(state: .active, start: 0, end: 10), StateInterval(state: .background, start: 10, end: 40)]
        let activity = Self.lane(seconds: 10, wakeups: 1, cpu: 1) + Self.lane(from: 10, seconds: 30, wakeups: 1, cpu: 0.9)
        let cpu = try result("apple.background-cpu", Self.run(seconds: 40, activity: activity, states: states))
        XCTAssertEqual(cpu.status, .wouldTrip)
        XCTAssertEqual(try XCTUnwrap(cpu.rate), 0.9, accuracy: 1e-9, "the foreground's full core does not count")
        XCTAssertEqual(try XCTUnwrap(cpu.secondsToLimit), 48 / 0.9, accuracy: 1e-9)
        XCTAssertTrue(cpu.source.contains("forums/thread/675166"))
        XCTAssertEqual(try result("apple.background-cpu", Self.run(seconds: 40, activity: activity)).status, .notApplicable)
    }

    func testHangsAreCountedByBucketWithTheFirstOne() throws {
        let hangs = [HangMark(handler: "a", start: 2, durationMs: 300, stack: nil), HangMark(handler: "b", start: 5, durationMs: 1500, stack: nil)]
        let result = try result("apple.hangs", Self.run(seconds: 10, hangs: hangs))
        XCTAssertEqual(result.status, .exceeded)
        XCTAssertEqual(result.buckets?.map(\.count), [2, 1, 1, 0])
        XCTAssertEqual(result.buckets?.map(\.firstAt), [2, 5, 5, nil])
        XCTAssertEqual(result.secondsToLimit, 2)
        XCTAssertEqual(try self.result("apple.hangs", Self.run(seconds: 10)).status, .within)
    }

    func testEveryLimitNamesItsSourceAndIsInThePack() {
        XCTAssertEqual(AppleLimits.all.map(\.id), ["apple.wakeups", "apple.disk-writes", "apple.hangs", "apple.background-cpu",
                                                   "apple.timer-tolerance", "apple.timer-no-effect"])
        for limit in AppleLimits.all {
            XCTAssertTrue(limit.source.contains("https://developer.apple.com/"), "\(limit.id) cites where it can be read")
        }
        XCTAssertEqual(AppleLimits.appleMB(1_073_741_824), "1073.74 MB", "2^30 bytes is the report's 1073.74 MB")
    }

    /// A 50 ms repeating timer without tolerance is a finding naming the timer and its creation
    /// site; with 10% (5 ms) it is not. A timer whose firings write nothing is named too.
    func testTimersWithoutTenPercentToleranceAreNamed() throws {
        func run(tolerance: Double, write: Bool) -> RunReport {
            var run = Self.run(seconds: 2)
            let creation = TimerCreation(name: "poll; fast", interval: 0.05, tolerance: tolerance, repeats: true, site: "App/Poller.swift:12")
            XCTAssertEqual(TimerCreation(detail: creation.detail), creation, "the mark reads back, a name with the separator included")
            run.timeline.marks = [AppMark(time: 0.1, name: TimerCreation.markName, detail: creation.detail)]
            run.timeline.handlers = (1...10).map { HandlerSpan(name: "timer:poll; fast", start: 0.1 + Double($0) * 0.05, durationMs: 1) }
            if write {
                run.timeline.disk = [DiskMark(time: 0.2, durationMs: 0.5, path: "Documents/x", location: .documents, operation: .replace,
                                              bytes: 10, changedBytes: 10, synced: false, onMainThread: true)]
            }
            return run
        }
        let bare = try result("apple.timer-tolerance", run(tolerance: 0, write: false))
        XCTAssertEqual(bare.status, .exceeded)
        XCTAssertTrue(bare.summary.contains("'poll; fast' (App/Poller.swift:12) every 50 ms with 0 s tolerance, under 5 ms"), bare.summary)
        XCTAssertTrue(bare.source.contains("MinimizeTimerUse"))
        XCTAssertEqual(try result("apple.timer-tolerance", run(tolerance: 0.005, write: false)).status, .within)
        let idle = try result("apple.timer-no-effect", run(tolerance: 0.005, write: false))
        XCTAssertEqual(idle.status, .exceeded)
        XCTAssertTrue(idle.summary.contains("10 firings, none wrote, sent or marked anything"), idle.summary)
        XCTAssertEqual(try result("apple.timer-no-effect", run(tolerance: 0.005, write: true)).status, .within)
        XCTAssertEqual(try result("apple.timer-tolerance", Self.run(seconds: 2)).status, .notApplicable)
    }
}
