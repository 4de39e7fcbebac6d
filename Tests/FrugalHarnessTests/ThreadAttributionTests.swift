import Foundation
import Synchronization
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// Wakeups attributed to the thread that woke, for real: apps that touch a global queue, a
/// detached task or URLSession once and then idle 10 s (`short-idle`) are charged nothing while
/// libdispatch's pool monitor wakes its manager thread about once a second, shown as the
/// platform's; their twins with a 1 s timer are still charged the timer's wakeups.
final class ThreadAttributionTests: XCTestCase {
    static let workloads = ["threads.global-queue-once", "threads.global-queue-timer", "threads.detached-task-once",
                            "threads.detached-task-timer", "threads.urlsession-once", "threads.urlsession-timer",
                            "threads.serial-queue-timer", "threads.global-queue-foundation-timer"]
    /// Light, so they sleep beside the pair classes' runs, as `frugal run` would run them
    /// (``ScheduledRuns/pairs``): their own batch, alone, took about 11 s of the main lane.
    static var runs: ScheduledRuns { .pairs }

    func report(_ workload: String) throws -> RunReport {
        let record = try Self.runs.record(workload)
        XCTAssertEqual(record.outcome, .completed, "\(workload): \(record.outcomeDetail ?? "")")
        return ReportBuilder.runReport(record)
    }

    func testTouchingThePlatformOnceThenIdlingIsNotCharged() throws {
        for workload in ["threads.global-queue-once", "threads.detached-task-once", "threads.urlsession-once"] {
            let report = try report(workload)
            // Charged: 0 in every measured run alone (docs/THREADS.md); beside the six other runs
            // of this class one stray wakeup in the ~9.5 s idle was seen once (urlsession-once:
            // 0.105/s, which the curve scores 0.899), so one is allowed: load, or the fetch's last
            // packet arriving after the wait began (URLSession's requests are not FrugalKit's, so
            // the idle account does not know them to be in flight).
            let audit = try XCTUnwrap(report.audits["power.avoid-polling"], workload)
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(audit.score, workload), 0.85, "\(workload): \(audit.displayValue)")
            let charged = try XCTUnwrap(report.metrics[MetricName.cpuIdleWakeupsPerSecond]?.value, workload)
            XCTAssertLessThanOrEqual(charged, 0.11, workload)
            let threads = try XCTUnwrap(report.threads, workload)
            let manager = try XCTUnwrap(threads.threads.first { $0.role == .dispatchManager }, "\(workload): no libdispatch manager shown")
            XCTAssertTrue(manager.evidence.contains("_dispatch_mgr"), manager.evidence)
            // The monitor fires once a second over ~9.5 s of idle; generous for a loaded machine.
            XCTAssertGreaterThanOrEqual(manager.platformWakeups, 6, "\(workload): \(manager)")
            XCTAssertEqual(threads.platformIdleWakeups, manager.platformWakeups)
            XCTAssertNotNil(threads.platformReason)
            XCTAssertGreaterThan(try XCTUnwrap(report.metrics[MetricName.cpuIdlePlatformWakeupsPerSecond]?.value), 0.5, workload)
        }
    }

    func testAOneSecondTimerIsStillCharged() throws {
        for workload in ["threads.global-queue-timer", "threads.detached-task-timer", "threads.urlsession-timer",
                         "threads.global-queue-foundation-timer"] {
            let report = try report(workload)
            // The timer's ~1 wakeup a second stays the app's, whichever thread it wakes.
            let charged = try XCTUnwrap(report.metrics[MetricName.cpuIdleWakeupsPerSecond]?.value, workload)
            XCTAssertGreaterThanOrEqual(charged, 0.8, workload)
            let score = try XCTUnwrap(report.audits["power.avoid-polling"]?.score, workload)
            // A steady wake at 1 Hz or faster is clearly failing (issue 30): the curve puts 0.5 at
            // one wakeup per 2.5 s, so the ≥ 0.8/s asserted above scores ≤ 0.26. A global-queue
            // dispatch timer wakes a worker and the manager: 1.4–1.6/s charged when its manager
            // wakeup is its own, 1/s when the monitor's tick falls in the same manager wakeup.
            XCTAssertLessThan(score, 0.3, workload)
        }
    }

    /// A serial queue's dispatch timer and no global queue: no pool thread that arms the monitor,
    /// so the manager's wakeups (for the app's timer) are all the app's.
    func testWithoutThePoolMonitorTheManagerIsCharged() throws {
        let report = try report("threads.serial-queue-timer")
        let threads = try XCTUnwrap(report.threads)
        XCTAssertEqual(threads.platformIdleWakeups, 0)
        let manager = try XCTUnwrap(threads.threads.first { $0.role == .dispatchManager })
        XCTAssertTrue(manager.evidence.contains("no pool monitor"), manager.evidence)
        XCTAssertGreaterThanOrEqual(manager.idleWakeups, 6, "the timer wakes it about once a second")
        XCTAssertLessThan(try XCTUnwrap(report.audits["power.avoid-polling"]?.score), 0.5)
    }

    /// The stack reader on a thread of this process: a Foundation `Thread` asleep is the app's
    /// own, shown by its start routine.
    func testAThreadsStackIsReadFromOutside() throws {
        let started = DispatchSemaphore(value: 0), stop = Mutex(false)
        let thread = Thread {
            // Named in the kernel by the thread itself (prctl): Foundation's Thread.name does not
            // always reach /proc (ThreadNameTests), and the test once found no thread of that name.
            try? SystemCall.nameCurrentThread("evidence-test")
            started.signal()
            while !stop.withLock({ $0 }) { usleep(20_000) }
        }
        thread.start()
        started.wait()
        defer { stop.withLock { $0 = true } }
        let pid = getpid()
        let collector = ThreadEvidenceCollector()
        var evidence: ThreadEvidence?
        // A look that finds the thread awake reads no stack, and the next look at it comes a
        // second later (`relookInterval`): up to 3 s.
        for _ in 0..<300 where evidence?.stack.isEmpty ?? true {
            let samples = try ProcFS.threadIDs(pid: pid).compactMap { try? ProcFS.threadSample(pid: pid, tid: $0) }
            let mine = samples.filter { $0.name == "evidence-test" }
            XCTAssertEqual(mine.count, 1)
            collector.observe(pid: pid, threads: mine)
            evidence = collector.all.first { $0.name == "evidence-test" }
            usleep(10_000)
        }
        let found = try XCTUnwrap(evidence)
        XCTAssertNil(found.stackUnavailable)
        XCTAssertTrue(found.stack.contains { $0.symbol?.contains("NSThreadStart") == true }, "\(found.stack.map { $0.symbol ?? "?" })")
        XCTAssertEqual(ThreadRole.classify(found).role, .app, ThreadRole.classify(found).because)
    }
}
