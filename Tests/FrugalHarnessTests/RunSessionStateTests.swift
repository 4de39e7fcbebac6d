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

    /// The moves the suspension's state does not allow are refused and change nothing: a
    /// suspension ended that never began, one begun over another, a freeze over a suspension, a
    /// thaw of nothing, a new process while the freezer holds the run.
    func testImpossibleSuspensionMovesAreRefused() {
        var ledger = SuspensionLedger()
        XCTAssertFalse(ledger.ended(at: 50, sample: nil, endedBy: "foreground"), "nothing to end")
        XCTAssertFalse(ledger.thawed(), "nothing frozen")
        XCTAssertEqual(ledger.state, .running)
        XCTAssertTrue(ledger.froze())
        XCTAssertFalse(ledger.froze(), "already frozen")
        XCTAssertFalse(ledger.processReplaced(), "a process born in a frozen run would be frozen")
        XCTAssertTrue(ledger.began(SuspensionRecord(pid: 7, start: 100, sampleAtStart: nil, listeningSockets: [])))
        XCTAssertEqual(ledger.state, .suspended(frozen: true))
        XCTAssertFalse(ledger.began(SuspensionRecord(pid: 7, start: 120, sampleAtStart: nil, listeningSockets: [])),
                       "a suspension begun over an open one")
        XCTAssertEqual(ledger.records.map(\.start), [100], "the refused one left no record")
        XCTAssertTrue(ledger.thawed())
        XCTAssertEqual(ledger.state, .suspended(frozen: false), "thawed, still suspended until it is ended")
        XCTAssertTrue(ledger.ended(at: 200, sample: nil, endedBy: "foreground"))
        XCTAssertFalse(ledger.ended(at: 300, sample: nil, endedBy: "kill"), "ended twice")
        XCTAssertEqual(ledger.records.first?.end, 200, "the second end did not move the first one's")
        XCTAssertEqual(ledger.records.first?.endedBy, "foreground")
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
