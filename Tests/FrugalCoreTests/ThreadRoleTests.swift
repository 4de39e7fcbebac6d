import XCTest
@testable import FrugalCore

/// Threads told apart by evidence (`ThreadRole.classify`), and idle wakeups charged to the app
/// or left out as the platform's (libdispatch's Linux pool monitor), on hand-made samples.
final class ThreadRoleTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000

    static func frame(_ symbol: String, _ module: String) -> StackFrame { StackFrame(module: module, symbol: symbol, address: "0x1") }

    /// A libdispatch manager thread's stack as the harness reads it while it waits in epoll.
    static let managerStack = [frame("epoll_wait", "libc.so.6"), frame("_dispatch_event_loop_drain", "libdispatch.so"),
                               frame("_dispatch_mgr_invoke", "libdispatch.so"), frame("_dispatch_mgr_thread", "libdispatch.so"),
                               frame("_dispatch_worker_thread", "libdispatch.so"), frame("start_thread", "libc.so.6")]
    static let workerStack = [frame("syscall", "libc.so.6"), frame("_dispatch_sema4_timedwait", "libdispatch.so"),
                              frame("_dispatch_worker_thread", "libdispatch.so"), frame("start_thread", "libc.so.6")]

    func testRolesComeFromEvidenceNotNames() {
        XCTAssertEqual(ThreadRole.classify(ThreadEvidence(pid: 100, tid: 100, name: "app")).role, .main)
        let manager = ThreadRole.classify(ThreadEvidence(pid: 100, tid: 101, name: "DispatchWorker", stack: Self.managerStack))
        XCTAssertEqual(manager.role, .dispatchManager)
        XCTAssertTrue(manager.because.contains("_dispatch_mgr_invoke"), manager.because)
        XCTAssertEqual(ThreadRole.classify(ThreadEvidence(pid: 100, tid: 102, name: "DispatchWorker", stack: Self.workerStack)).role,
                       .dispatchWorker)
        // The name alone is not evidence: threads inherit their creator's name.
        let named = ThreadRole.classify(ThreadEvidence(pid: 100, tid: 103, name: "DispatchWorker", stackUnavailable: "process_vm_readv: EPERM"))
        XCTAssertEqual(named.role, .unknown)
        XCTAssertTrue(named.because.contains("EPERM"), named.because)
        XCTAssertEqual(ThreadRole.classify(ThreadEvidence(pid: 100, tid: 104, name: "frugal-sampler")).role, .frugalRuntime)
        let own = ThreadEvidence(pid: 100, tid: 105, name: "app",
                                 stack: [Self.frame("nanosleep", "libc.so.6"), Self.frame("closure #1 in App.poll()", "app"),
                                         Self.frame("start_thread", "libc.so.6")], program: "app")
        XCTAssertEqual(ThreadRole.classify(own).role, .app)
        let curl = ThreadEvidence(pid: 100, tid: 106, name: "DispatchWorker",
                                  stack: [Self.frame("getaddrinfo", "libc.so.6"), Self.frame("getaddrinfo_thread", "libcurl.so.4"),
                                          Self.frame("start_thread", "libc.so.6")], program: "app")
        XCTAssertEqual(ThreadRole.classify(curl).role, .foundation)
        let stranger = ThreadEvidence(pid: 100, tid: 107, name: "app", stack: [Self.frame("worker", "libother.so")], program: "app")
        XCTAssertEqual(ThreadRole.classify(stranger).role, .unknown)
    }

    /// A 10 s wait sampled every second: the main thread (100), libdispatch's manager (101) and a
    /// worker (102), each waking `perSecond[tid]` times a second.
    static func record(perSecond: [Int32: Int], evidence: [ThreadEvidence]?) -> RunRecord {
        var record = RunAnalysisTests.record()
        let start = record.startTime
        let tids: [Int32] = [100, 101, 102]
        let names: [Int32: String] = [100: "app", 101: "-qos.overcommit", 102: "oot.default-qos"]
        // Typed closures: inferred, this expression took the type checker 3.6 s of every clean build.
        let samples: [ProcessSample] = (0...10).map { (index: Int) -> ProcessSample in
            let threads: [ThreadSample] = tids.map { (tid: Int32) -> ThreadSample in
                let switches: Int = 5 + index * (perSecond[tid] ?? 0)
                return ThreadSample(tid: tid, name: names[tid] ?? "", voluntaryContextSwitches: switches,
                                    involuntaryContextSwitches: 0, onCPUNanoseconds: UInt64(index) * 1000, state: "S")
            }
            return ProcessSample(time: start + UInt64(2 + index) * s, threads: threads)
        }
        record.pid = 100
        record.steps[1] = StepRecord(index: 1, step: .wait(seconds: 10), start: start + 2 * s, end: start + 12 * s, phaseStart: start + 2 * s,
                                     sampleAtStart: samples[0], sampleAtEnd: samples[10])
        record.samples = samples
        record.threadEvidence = evidence
        return record
    }

    /// libdispatch 6.3.1's names: the manager shares the user-interactive overcommit pool's, the
    /// worker of `DispatchQueue.global()` is named after the default-QoS root queue.
    static let evidence = [ThreadEvidence(pid: 100, tid: 100, name: "app"),
                           ThreadEvidence(pid: 100, tid: 101, name: "-qos.overcommit", stack: managerStack),
                           ThreadEvidence(pid: 100, tid: 102, name: "oot.default-qos", stack: workerStack)]

    func testThePoolMonitorIsThePlatformsAndTheAppIsChargedNothing() throws {
        let analysis = RunAnalysis(Self.record(perSecond: [101: 1], evidence: Self.evidence))
        let account = try XCTUnwrap(analysis.idleAccounts.first)
        XCTAssertEqual(account.allIdleWakeups, 10)
        XCTAssertEqual(account.platformWakeups, 10)
        XCTAssertEqual(account.idleWakeups, 0)
        let metrics = MetricExtraction.metrics(of: analysis)
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.cpuIdleWakeupsPerSecond]?.value), 0, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.cpuIdlePlatformWakeupsPerSecond]?.value), 1, accuracy: 1e-12)
        let audit = try XCTUnwrap(Audits.evaluate(analysis, metrics: metrics)["power.avoid-polling"])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(audit.score), 0.9)
        XCTAssertTrue(audit.evidence.contains { $0.description.contains("not charged (platform)") })
        let summary = try XCTUnwrap(RunThreadsSummary(analysis))
        XCTAssertEqual(summary.threads.first?.tid, 101, "the manager woke most")
        XCTAssertEqual(summary.threads.first?.role, .dispatchManager)
        XCTAssertEqual(summary.threads.first?.platformWakeups, 10)
        XCTAssertEqual(summary.platformIdleWakeups, 10)
        XCTAssertEqual(summary.appIdleWakeups, 0)
        XCTAssertNotNil(summary.platformReason)
    }

    func testAOneSecondTimerOnTheMainThreadIsStillCharged() throws {
        let analysis = RunAnalysis(Self.record(perSecond: [100: 1, 101: 1], evidence: Self.evidence))
        let account = try XCTUnwrap(analysis.idleAccounts.first)
        XCTAssertEqual(account.idleWakeups, 10)
        XCTAssertEqual(account.platformWakeups, 10)
        let metrics = MetricExtraction.metrics(of: analysis)
        let audit = try XCTUnwrap(Audits.evaluate(analysis, metrics: metrics)["power.avoid-polling"])
        XCTAssertLessThanOrEqual(try XCTUnwrap(audit.score), 0.5)
    }

    /// The app's own dispatch timer wakes the manager too: past the monitor's one a second, the
    /// manager's wakeups are the app's, and the worker that ran the handler is charged as well.
    func testTheManagerPastTheMonitorsRateIsTheApps() throws {
        let account = try XCTUnwrap(RunAnalysis(Self.record(perSecond: [101: 3, 102: 1], evidence: Self.evidence)).idleAccounts.first)
        XCTAssertEqual(account.allIdleWakeups, 40)
        XCTAssertEqual(account.platformWakeups, RunAnalysis.platformWakeupAllowance(seconds: 10))
        XCTAssertEqual(account.platformWakeups, 11)
        XCTAssertEqual(account.idleWakeups, 29)
    }

    /// Without evidence (an older record, or a stack that could not be read) nothing is the platform's.
    func testWithoutEvidenceEveryWakeupIsCharged() throws {
        for evidence in [nil, [ThreadEvidence(pid: 100, tid: 101, name: "DispatchWorker", stackUnavailable: "running at every look")]] {
            let analysis = RunAnalysis(Self.record(perSecond: [101: 1], evidence: evidence))
            XCTAssertEqual(try XCTUnwrap(analysis.idleAccounts.first).idleWakeups, 10)
            XCTAssertEqual(analysis.threadActivity.first { $0.tid == 101 }?.role, .unknown)
        }
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(perSecond: [101: 1], evidence: nil)))
        XCTAssertNil(metrics[MetricName.cpuIdlePlatformWakeupsPerSecond]?.value, "no evidence: unavailable, not 0")
    }

    /// An app of serial queues and dispatch sources only never starts the pool monitor: its
    /// pool threads are all overcommit ones, and the manager wakes for the app's own sources.
    func testWithoutANonOvercommitPoolThreadTheManagerIsTheApps() throws {
        var evidence = Self.evidence
        evidence[2].name = "-qos.overcommit"
        let analysis = RunAnalysis(Self.record(perSecond: [101: 1, 102: 1], evidence: evidence))
        XCTAssertTrue(analysis.poolMonitorEvidence.isEmpty)
        let account = try XCTUnwrap(analysis.idleAccounts.first)
        XCTAssertEqual(account.platformWakeups, 0)
        XCTAssertEqual(account.idleWakeups, 20)
        let manager = try XCTUnwrap(analysis.threadActivity.first { $0.tid == 101 })
        XCTAssertEqual(manager.role, .dispatchManager)
        XCTAssertTrue(manager.evidence.contains("no pool monitor"), manager.evidence)
        // A later libdispatch names every pool thread DispatchWorker: the pool is not shown either.
        evidence[2].name = "DispatchWorker"
        XCTAssertEqual(try XCTUnwrap(RunAnalysis(Self.record(perSecond: [101: 1], evidence: evidence)).idleAccounts.first).platformWakeups, 0)
    }

    /// An interruption is judged the same way: the monitor's wakeups while inactive are not the app's.
    func testInactiveWakeupsLeaveOutThePlatformToo() throws {
        var record = Self.record(perSecond: [101: 1, 100: 2], evidence: Self.evidence)
        record.steps[1].step = .interrupt(seconds: 10)
        let analysis = RunAnalysis(record)
        let phase = try XCTUnwrap(analysis.inactivePhases.first)
        XCTAssertEqual(phase.wakeups, 30)
        XCTAssertEqual(analysis.platformWakeups(in: phase), 10)
        let metrics = MetricExtraction.metrics(of: analysis)
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.lifecycleInactiveWakeupsPerSecond]?.value), 2, accuracy: 1e-9)
    }

    /// Busy slices split the idle time: each contiguous stretch gets its own allowance.
    func testAllowanceIsPerContiguousStretch() {
        XCTAssertEqual(RunAnalysis.platformWakeupAllowance(seconds: 0.2), 1)
        XCTAssertEqual(RunAnalysis.platformWakeupAllowance(seconds: 10), 11)
        XCTAssertEqual(RunAnalysis.platformWakeupAllowance(seconds: 0), 1)
    }
}
