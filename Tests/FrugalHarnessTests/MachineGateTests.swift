import XCTest
@testable import FrugalHarness
import FrugalCore

/// The gate shared across processes (``MachineGate``). Two instances on one file hold separate
/// open file descriptions, which `flock` treats as two processes: each test stands in for two
/// suites. Real time (the settle is on the monotonic clock); the bounds are about order and are
/// generous (a second or more to spare), never tight durations.
final class MachineGateTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-machine-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    var path: String { directory.appendingPathComponent("gate").path }

    // @unchecked: every field is read and written holding `lock`.
    final class Events: @unchecked Sendable {
        let lock = NSLock()
        private var entries: [(String, Date)] = []
        func add(_ name: String) { lock.withLock { entries.append((name, Date())) } }
        var names: [String] { lock.withLock { entries.map(\.0) } }
        func time(_ name: String) -> Date? { lock.withLock { entries.first { $0.0 == name }?.1 } }
    }

    // @unchecked: every field is read and written holding `lock`.
    final class ResultList: @unchecked Sendable {
        let lock = NSLock()
        private var results: [Result<[RunRecord], Error>] = []
        func add(_ result: Result<[RunRecord], Error>) { lock.withLock { results.append(result) } }
        var all: [Result<[RunRecord], Error>] { lock.withLock { results } }
    }

    func testASecondProcessWaitsForTheHolderAndItsSettleTime() throws {
        let first = try MachineGate(path: path), second = try MachineGate(path: path)
        XCTAssertTrue(first.acquire())
        let events = Events()
        let done = expectation(description: "second holds")
        Thread.detachNewThread {
            second.acquire()
            events.add("second")
            second.release()
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertNil(events.time("second"), "the second took the gate while the first held it")
        let released = Date()
        first.release(settle: 0.2)
        wait(for: [done], timeout: 10)
        let took = try XCTUnwrap(events.time("second"))
        XCTAssertGreaterThanOrEqual(took.timeIntervalSince(released), 0.18, "the settle time the first left was not waited out")
    }

    func testAHolderThatWantsTheGateBackWaitsBehindTheProcessAlreadyWaiting() throws {
        let first = try MachineGate(path: path), second = try MachineGate(path: path)
        XCTAssertTrue(first.acquire())
        let events = Events()
        let secondDone = expectation(description: "second"), firstAgain = expectation(description: "first again")
        Thread.detachNewThread {
            second.acquire()
            events.add("second")
            Thread.sleep(forTimeInterval: 0.2)
            second.release()
            secondDone.fulfill()
        }
        // The second is in the waiting room by now (it polls every 20 ms).
        Thread.sleep(forTimeInterval: 0.3)
        first.release()
        Thread.detachNewThread {
            first.acquire()
            events.add("first again")
            first.release()
            firstAgain.fulfill()
        }
        wait(for: [secondDone, firstAgain], timeout: 10)
        XCTAssertEqual(events.names, ["second", "first again"], "the holder took the gate back past the one waiting")
    }

    func testHoldsWithinAProcessAreCountedAndAWaitEndsWhenTheSuiteStops() throws {
        let first = try MachineGate(path: path), second = try MachineGate(path: path)
        XCTAssertTrue(first.acquire())
        XCTAssertTrue(first.acquire(), "a second holder in the same process passes at once")
        first.release()
        XCTAssertTrue(first.isHeld)
        let deadline = Date().addingTimeInterval(0.3)
        let started = Date()
        XCTAssertFalse(second.acquire(shouldStop: { Date() > deadline }), "taken while the first process still held it once")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "a stopped wait ended late")
        XCTAssertFalse(second.isHeld)
        first.release()
        XCTAssertFalse(first.isHeld)
        XCTAssertTrue(second.acquire(shouldStop: { Date() > deadline.addingTimeInterval(5) }))
        second.release()
    }

    func testAFileThatCannotBeMadeIsNamed() {
        XCTAssertThrowsError(try MachineGate.named(in: [MachineGate.environmentVariable: "/no/such/dir/gate"])) { error in
            XCTAssertTrue("\(error)".contains("/no/such/dir/gate"), "\(error)")
        }
        XCTAssertNil(try MachineGate.named(in: [:]))
        XCTAssertNil(try MachineGate.named(in: [MachineGate.environmentVariable: ""]))
    }

    /// Two suites (schedulers with the test double of the runner) share one machine: no launch,
    /// judged step or exclusive run of one overlaps a launch, judged step or exclusive run of the
    /// other, while each still runs its own plans as it would alone.
    func testTwoSuitesSharingTheGateNeverJudgeStepsBesideEachOther() throws {
        let log = ResourceSchedulerGateTests.StepLog()
        let schedules = ResultList()
        let suites = try (0..<2).map { suite -> (ResourceScheduler, [RunPlan]) in
            let interruption = SuiteInterruption()
            let scheduler = ResourceScheduler(interruption: interruption, gatedSlots: 4, launchSettle: 0.02,
                                              machine: try MachineGate(path: path),
                                              runPlan: ResourceSchedulerGateTests.double(log, interruption: interruption))
            let plans = [ResourceSchedulerGateTests.plan("s\(suite)-exclusive", .exclusive("test")),
                         ResourceSchedulerGateTests.plan("s\(suite)-gated", .gated("test")),
                         ResourceSchedulerGateTests.plan("s\(suite)-light", .light)]
            return (scheduler, plans)
        }
        let group = DispatchGroup()
        for (scheduler, plans) in suites {
            group.enter()
            Thread.detachNewThread {
                let result = Result { try scheduler.run(plans) }
                schedules.add(result)
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "the suites did not finish: a gate was never given back")
        XCTAssertEqual(schedules.all.count, 2)
        for result in schedules.all { XCTAssertEqual(try result.get().count, 3) }
        func suite(_ workload: String) -> Substring { workload.prefix(2) }
        let intervals = log.intervals
        let judged = intervals.filter(ResourceSchedulerGateTests.gated)
        // An exclusive run from its first step to its last (the double logs the run from before
        // its launch waited for the machine).
        var exclusiveRuns: [String: (start: Date, end: Date)] = [:]
        for step in intervals where step.workload.hasSuffix("-exclusive") {
            let known = exclusiveRuns[step.workload] ?? (step.start, step.end)
            exclusiveRuns[step.workload] = (min(known.start, step.start), max(known.end, step.end))
        }
        for one in judged {
            for other in judged where suite(other.workload) != suite(one.workload) {
                XCTAssertFalse(one.overlaps(other), "\(one.workload) \(one.step.name) beside \(other.workload) \(other.step.name)")
            }
            for (name, run) in exclusiveRuns where suite(name) != suite(one.workload) {
                XCTAssertFalse(one.overlaps(run), "\(one.workload) \(one.step.name) beside the exclusive \(name)")
            }
        }
        let both = exclusiveRuns.values.sorted { $0.start < $1.start }
        XCTAssertEqual(both.count, 2)
        XCTAssertLessThanOrEqual(both[0].end, both[1].start, "the two suites' exclusive runs overlapped")
    }
}
