import XCTest
@testable import FrugalCore

/// `power.avoid-polling` leaves out the span from an input to the first write or request after
/// it: a debounce holding the input's changes, as the guide asks ("coalesce changes"), whose
/// cancelled timers still fire (RunAnalysis+Coalescing). A poller that also writes is still
/// charged, and so is an app that writes nothing after its input.
final class IdleCoalescingTests: XCTestCase {
    typealias Lifecycle = LifecycleAnalysisTests
    static let s = Lifecycle.s, ms = Lifecycle.ms

    /// An input at 1 s, then an 8 s wait (1.1 s to 9.1 s) sampled every 0.5 s. A worker thread
    /// (101) wakes `beforeSave` times in each slice before the save at 3.35 s (a change the
    /// sandbox watcher read, or `write_bytes` growing in the slice holding it), `afterSave` in
    /// each slice after it. `breakAfterInput` puts a `home` between the input and the wait.
    static func record(beforeSave: Int, afterSave: Int, save: Save? = .fileChange, breakAfterInput: Bool = false) -> RunRecord {
        let saveTime = 3350 * ms
        let times = stride(from: 1100 * ms, through: 9100 * ms, by: Int(500 * ms)).map { $0 }
        var worker = 0, written = 0
        var samples: [ProcessSample] = []
        for (index, time) in times.enumerated() {
            if index > 0 {
                worker += times[index - 1] < saveTime ? beforeSave : afterSave
                if save == .bytesWritten, times[index - 1] < saveTime, time >= saveTime { written += 4096 }
            }
            var sample = Lifecycle.sample(time, [(100, 0, 0), (101, worker, 0)])
            sample.physicalBytesWritten = written
            samples.append(sample)
        }
        var steps = [StepRecord(index: 0, step: .input(kind: "key"), start: 1 * s, end: 1010 * ms)]
        if breakAfterInput { steps.append(StepRecord(index: 1, step: .home, start: 1010 * ms, end: 1100 * ms)) }
        steps.append(StepRecord(index: steps.count, step: .wait(seconds: 8), start: 1100 * ms, end: 9100 * ms, phaseStart: 1100 * ms,
                                sampleAtStart: samples.first, sampleAtEnd: samples.last))
        var record = Lifecycle.record(events: [], steps: steps, samples: Array(samples.dropFirst().dropLast()), end: 10 * s)
        if save == .fileChange {
            record.fileChanges = FileChangeLog(changes: [FileChange(path: "Documents/note.txt", kind: .replaced, time: saveTime,
                                                                    sizeAfter: 120, bytesWritten: 4096, existed: true)])
        }
        return record
    }

    enum Save { case fileChange, bytesWritten }

    static func audit(_ record: RunRecord) -> AuditResult? {
        let analysis = RunAnalysis(record)
        return Audits.evaluate(analysis, metrics: MetricExtraction.metrics(of: analysis))["power.avoid-polling"]
    }

    func testADebouncesCancelledTimersBeforeItsSaveAreNotPolling() throws {
        // Three wakeups a slice (6 a second) until the save, none after: the 5.5 s after the
        // save's slice are judged, and are quiet.
        for save in [Save.fileChange, .bytesWritten] {
            let good = try XCTUnwrap(Self.audit(Self.record(beforeSave: 3, afterSave: 0, save: save)))
            XCTAssertEqual(good.numericValue, 0, "\(save): \(good.displayValue ?? "")")
            XCTAssertEqual(good.score, 1)
            let wait = try XCTUnwrap(good.evidence.first?.description)
            XCTAssertTrue(wait.contains("holding an input's changes until they were written or sent"), wait)
        }
        // Without a save there is nothing the span ends with: every wakeup is charged.
        let unsaved = try XCTUnwrap(Self.audit(Self.record(beforeSave: 3, afterSave: 0, save: nil)))
        XCTAssertEqual(try XCTUnwrap(unsaved.numericValue), 15.0 / 8, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(unsaved.score), 0.5)
    }

    func testAPollerThatAlsoSavesIsStillCharged() throws {
        // Two wakeups a slice (4 a second) from start to end, a save at 3.35 s: the slices after
        // the save still read 4 a second.
        let bad = try XCTUnwrap(Self.audit(Self.record(beforeSave: 2, afterSave: 2)))
        XCTAssertEqual(try XCTUnwrap(bad.numericValue), 4, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(bad.score), 0.5)
    }

    func testASpanDoesNotCrossAStepOtherThanWaitsInputsAndMarks() throws {
        // The app went to the background after its input: a save there is not the input's.
        let analysis = RunAnalysis(Self.record(beforeSave: 3, afterSave: 0, breakAfterInput: true))
        XCTAssertTrue(analysis.busyIntervals.filter { $0.reason == .coalescing }.isEmpty)
        // Without the break, one span: from the input to the save.
        let spans = RunAnalysis(Self.record(beforeSave: 3, afterSave: 0)).busyIntervals.filter { $0.reason == .coalescing }
        XCTAssertEqual(spans.map(\.start), [1 * Self.s])
        XCTAssertEqual(spans.map(\.end), [3350 * Self.ms])
    }
}
