import XCTest
@testable import FrugalHarness
import FrugalCore

/// The owners of a run's changing state allow only their own transitions: a suspension ends on
/// the record it began, an outcome and its detail are set together, the latches go one way.
final class RunSessionStateTests: XCTestCase {
    func testASuspensionEndsOnTheRecordItBegan() {
        var ledger = SuspensionLedger()
        XCTAssertFalse(ledger.isSuspended)
        ledger.began(SuspensionRecord(pid: 7, start: 100, sampleAtStart: nil, listeningSockets: []))
        XCTAssertTrue(ledger.isSuspended)
        ledger.ended(at: 250, sample: nil, endedBy: "foreground")
        XCTAssertFalse(ledger.isSuspended)
        ledger.began(SuspensionRecord(pid: 7, start: 300, sampleAtStart: nil, listeningSockets: []))
        ledger.processReplaced()
        XCTAssertFalse(ledger.isSuspended, "a new process runs")
        XCTAssertEqual(ledger.records.map(\.start), [100, 300], "the records stay the run's")
        XCTAssertEqual(ledger.records.first?.end, 250)
        XCTAssertEqual(ledger.records.first?.endedBy, "foreground")
        XCTAssertNil(ledger.records.last?.end, "the replaced process's suspension was never ended")

        XCTAssertFalse(ledger.isFrozen)
        ledger.froze()
        XCTAssertTrue(ledger.isFrozen)
        ledger.thawed()
        XCTAssertFalse(ledger.isFrozen)
    }

    func testAnOutcomeAndItsDetailAreSetTogetherAndTheLatchesHold() {
        var ending = RunEnding()
        XCTAssertNil(ending.outcome)
        XCTAssertFalse(ending.stopped)
        ending.decide(.killedWatchdog, detail: "launch took more than 5 s")
        ending.decide(.interrupted, detail: "SIGINT")
        XCTAssertEqual(ending.outcome, .interrupted)
        XCTAssertEqual(ending.detail, "SIGINT")
        ending.stop()
        ending.requestTerminate()
        XCTAssertTrue(ending.stopped)
        XCTAssertTrue(ending.terminateRequested)
    }
}
