import XCTest
@testable import FrugalCore

/// `power.avoid-polling` leaves out what an app does after an input before it goes quiet
/// (RunAnalysis+Coalescing): from the input to the first write or request after it (a debounce
/// holding the input's changes, as the guide asks: "coalesce changes"), and a run of wakeups
/// after an input followed by quiet at least as long and at least 2.5 s (a debounce whose
/// cancelled timers still fire, then work done in memory), in a wait or in a call that follows
/// it (`lifecycle.quiesce-when-inactive`). A poller is still charged, whether or not it also writes.
final class IdleCoalescingTests: XCTestCase {
    typealias Lifecycle = LifecycleAnalysisTests
    static let s = Lifecycle.s, ms = Lifecycle.ms

    /// Inputs 10 ms before `inputs` seconds (on the 0.5 s sample grid from 1.1 s, 1.1 s by
    /// default), each followed by a wait from there to the next (the last to 9.1 s). A worker
    /// thread (101) wakes `wakes(t)` times in the slice starting at `t` seconds. `save` puts a
    /// write at 3.35 s (a change the sandbox watcher read, or `write_bytes` growing in the slice
    /// holding it); `breakAfterInput` puts a `home` between the first input and its wait.
    static func record(inputs: [Double] = [1.1], wakes: (Double) -> Int, save: Save? = nil, breakAfterInput: Bool = false) -> RunRecord {
        let saveTime = 3350 * ms
        let times = stride(from: 1100 * ms, through: 9100 * ms, by: Int(500 * ms)).map { $0 }
        var worker = 0, written = 0
        var samples: [ProcessSample] = []
        for (index, time) in times.enumerated() {
            if index > 0 {
                worker += wakes(Double(times[index - 1]) / 1e9)
                if save == .bytesWritten, times[index - 1] < saveTime, time >= saveTime { written += 4096 }
            }
            var sample = Lifecycle.sample(time, [(100, 0, 0), (101, worker, 0)])
            sample.physicalBytesWritten = written
            samples.append(sample)
        }
        func sample(at time: UInt64) -> ProcessSample? { samples.first { $0.time == time } }
        var steps: [StepRecord] = []
        for (number, input) in inputs.enumerated() {
            let waitStart = UInt64((input * 10).rounded()) * 100 * ms
            let waitEnd = number + 1 < inputs.count ? UInt64((inputs[number + 1] * 10).rounded()) * 100 * ms : 9100 * ms
            steps.append(StepRecord(index: steps.count, step: .input(kind: "key"), start: waitStart - 10 * ms, end: waitStart - 5 * ms))
            if breakAfterInput, number == 0 { steps.append(StepRecord(index: steps.count, step: .home, start: waitStart - 5 * ms, end: waitStart)) }
            steps.append(StepRecord(index: steps.count, step: .wait(seconds: Double(waitEnd - waitStart) / 1e9), start: waitStart, end: waitEnd,
                                    phaseStart: waitStart, sampleAtStart: sample(at: waitStart), sampleAtEnd: sample(at: waitEnd)))
        }
        var record = Lifecycle.record(events: [], steps: steps, samples: samples, end: 10 * s)
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

    static func followUps(_ record: RunRecord) -> [(start: Double, end: Double)] {
        RunAnalysis(record).busyIntervals.filter { $0.reason == .inputFollowUp }.map { (Double($0.start) / 1e9, Double($0.end) / 1e9) }
    }

    func testADebouncesCancelledTimersBeforeItsSaveAreNotPolling() throws {
        // Three wakeups a slice (6 a second) until the save, none after: the slices to the save
        // are the input's, the 5.5 s after the save's slice are judged, and are quiet.
        for save in [Save.fileChange, .bytesWritten] {
            let good = try XCTUnwrap(Self.audit(Self.record(wakes: { $0 < 3.35 ? 3 : 0 }, save: save)))
            XCTAssertEqual(good.numericValue, 0, "\(save): \(good.displayValue ?? "")")
            XCTAssertEqual(good.score, 1)
            let wait = try XCTUnwrap(good.evidence.first?.description)
            XCTAssertTrue(wait.contains("finishing what an input started"), wait)
        }
        let spans = Self.followUps(Self.record(wakes: { $0 < 3.35 ? 3 : 0 }, save: .fileChange))
        XCTAssertEqual(spans.map(\.start), [1.09])
        XCTAssertEqual(spans.map(\.end), [3.35])
    }

    func testWakeupsAfterAnInputFollowedByALongerQuietAreNotPolling() throws {
        // No save (the work was done in memory): wakeups from 1.1 s to 3.6 s, then 5.5 s of quiet,
        // longer than the 2.51 s since the input and than 2.5 s.
        let good = try XCTUnwrap(Self.audit(Self.record(wakes: { $0 < 3.35 ? 3 : 0 })))
        XCTAssertEqual(good.numericValue, 0, good.displayValue ?? "")
        XCTAssertEqual(Self.followUps(Self.record(wakes: { $0 < 3.35 ? 3 : 0 })).map(\.end), [3.6])
        // Wakeups to 6.1 s: the 3 s of quiet after them are shorter than the 5.01 s since the input.
        let long = try XCTUnwrap(Self.audit(Self.record(wakes: { $0 < 6 ? 1 : 0 })))
        XCTAssertEqual(try XCTUnwrap(long.numericValue), 10.0 / 8, accuracy: 1e-9)
        XCTAssertTrue(Self.followUps(Self.record(wakes: { $0 < 6 ? 1 : 0 })).isEmpty)
        // Two bursts of typing, each followed by its quiet: both are the inputs'.
        let bursts = Self.followUps(Self.record(inputs: [1.1, 5.1], wakes: { ($0 > 1 && $0 < 2) || ($0 > 5 && $0 < 6) ? 2 : 0 }))
        XCTAssertEqual(bursts.map(\.start), [1.09, 5.09])
        XCTAssertEqual(bursts.map(\.end), [2.1, 6.1])
    }

    func testAPollerIsStillChargedWhetherOrNotItSaves() throws {
        // Two wakeups a slice (4 a second) from start to end, with a save at 3.35 s: the slices
        // after the save still read 4 a second; without the save, every slice is charged.
        let saving = try XCTUnwrap(Self.audit(Self.record(wakes: { _ in 2 }, save: .fileChange)))
        XCTAssertEqual(try XCTUnwrap(saving.numericValue), 4, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(saving.score), 0.5)
        let plain = try XCTUnwrap(Self.audit(Self.record(wakes: { _ in 2 })))
        XCTAssertEqual(try XCTUnwrap(plain.numericValue), 4, accuracy: 1e-9)
        // A poller every 2 s (the slowest that still fails: under 2.5 s of quiet between its
        // wakeups) earns nothing either.
        let slow = Self.record(wakes: { Int(($0 * 10).rounded()) % 20 == 1 ? 1 : 0 })
        XCTAssertTrue(Self.followUps(slow).isEmpty)
        XCTAssertEqual(try XCTUnwrap(Self.audit(slow)?.numericValue), 4.0 / 8, accuracy: 1e-9)
    }

    /// An input at 1.5 s, a 3 s interruption from 2 s, then a wait to 9 s, sampled every 0.5 s;
    /// a worker thread (101) wakes `wakes(t)` times in the slice starting at `t` seconds.
    static func callRecord(wakes: (Double) -> Int) -> RunRecord {
        let times = stride(from: 2 * s, through: 9 * s, by: Int(500 * ms)).map { $0 }
        var worker = 0
        var samples: [ProcessSample] = []
        for (index, time) in times.enumerated() {
            if index > 0 { worker += wakes(Double(times[index - 1]) / 1e9) }
            samples.append(Lifecycle.sample(time, [(100, 0, 0), (101, worker, 0)]))
        }
        func sample(at time: UInt64) -> ProcessSample? { samples.first { $0.time == time } }
        let steps = [StepRecord(index: 0, step: .input(kind: "key"), start: 1500 * ms, end: 1510 * ms),
                     StepRecord(index: 1, step: .interrupt(seconds: 3), start: 2 * s, end: 5 * s, phaseStart: 2 * s,
                                sampleAtStart: sample(at: 2 * s), sampleAtEnd: sample(at: 5 * s)),
                     StepRecord(index: 2, step: .wait(seconds: 4), start: 5 * s, end: 9 * s, phaseStart: 5 * s,
                                sampleAtStart: sample(at: 5 * s), sampleAtEnd: sample(at: 9 * s))]
        return Lifecycle.record(events: [Lifecycle.state(1 * s, .inactive, .active), Lifecycle.state(2 * s, .active, .inactive),
                                         Lifecycle.state(5 * s, .inactive, .active)],
                                steps: steps, samples: samples, end: 10 * s)
    }

    static func quiesce(_ record: RunRecord) -> AuditResult? {
        let analysis = RunAnalysis(record)
        return Audits.evaluate(analysis, metrics: MetricExtraction.metrics(of: analysis))["lifecycle.quiesce-when-inactive"]
    }

    func testTimersAnInputArmedThatFireInTheCallAfterItAreNotChargedToTheCall() throws {
        // The debounce's cancelled timers fire in the call's first second (4 wakeups a slice),
        // then nothing through the call and the wait after it: 6 s of quiet after a run of 1.5 s
        // from the input.
        let good = try XCTUnwrap(Self.quiesce(Self.callRecord { $0 < 3 ? 4 : 0 }))
        XCTAssertEqual(good.numericValue, 0, good.displayValue ?? "")
        XCTAssertTrue(good.evidence.first?.description.contains("finishing what an input before the interruption started") ?? false,
                      good.evidence.first?.description ?? "")
        // A 25 Hz clock ticking through the call and after it (12 a slice) is charged: 24 a second.
        let ticking = try XCTUnwrap(Self.quiesce(Self.callRecord { _ in 12 }))
        XCTAssertEqual(try XCTUnwrap(ticking.numericValue), 24, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(ticking.score), 0.5)
    }

    func testAFollowUpDoesNotCrossAStepOtherThanWaitsInputsMarksAndInterruptions() throws {
        // The app went to the background after its input: its save and its quiet there are not
        // the input's.
        XCTAssertTrue(Self.followUps(Self.record(wakes: { $0 < 3.35 ? 3 : 0 }, save: .fileChange, breakAfterInput: true)).isEmpty)
        XCTAssertTrue(Self.followUps(Self.record(wakes: { $0 < 3.35 ? 3 : 0 }, breakAfterInput: true)).isEmpty)
    }
}
