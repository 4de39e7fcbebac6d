import XCTest
@testable import FrugalCore

/// `memory.respond-to-warnings` for a black-box program, on hand-made samples: the fraction of the
/// anonymous memory held above the footprint still held 1 s after the warning signal.
final class ProgramWarningAuditTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000

    /// A program at 0.5 MiB anonymous at launch, 64.5 MiB at its warning at 2 s, `after` MiB 1 s later.
    static func record(after mebibytes: Double, held: Double = 64.5) -> RunRecord {
        var record = ProgramMetricsTests.record(exits: ProgramMetricsTests.fullTree)
        let start = record.startTime
        func memory(_ mib: Double) -> MemoryBreakdown { MemoryBreakdown(anonymousBytes: Int(mib * 1_048_576), fileBytes: 4 << 20, lazyFreeBytes: 0) }
        record.samples = [ProcessSample(time: start + s / 10, threads: [], memory: memory(0.5)),
                          ProcessSample(time: start + s, threads: [], memory: memory(held))]
        let warning = start + 2 * s
        record.steps.append(StepRecord(index: 1, step: .memoryWarning(level: .critical), start: warning, end: warning + s))
        record.memory = MemoryRunFacts(deliveries: [WarningDelivery(sequence: 1, level: .critical, origin: "scenario", time: warning,
                                                                    atDelivery: memory(held), after100ms: memory(mebibytes), after1s: memory(mebibytes))])
        return record
    }

    func testFreeingTheCachePassesAndKeepingItFails() throws {
        // Freed to 1.5 MiB: 1 of the 64 MiB above the 0.5 MiB footprint still held, 1/64.
        let frees = ReportBuilder.runReport(Self.record(after: 1.5))
        let passed = try XCTUnwrap(frees.audits["memory.respond-to-warnings"])
        XCTAssertEqual(try XCTUnwrap(passed.numericValue), 1.0 / 64, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(passed.score), 0.9)
        XCTAssertEqual(frees.metrics[MetricName.memoryFreedOnWarningBytes]?.value, 63 * 1_048_576)
        let keeps = ReportBuilder.runReport(Self.record(after: 64.5))
        let failed = try XCTUnwrap(keeps.audits["memory.respond-to-warnings"])
        XCTAssertEqual(failed.numericValue, 1)
        XCTAssertLessThan(try XCTUnwrap(failed.score), 0.5, "fails (the project's bands: pass ≥ 0.9, fail < 0.5)")
        XCTAssertEqual(keeps.metrics[MetricName.memoryFreedOnWarningBytes]?.value, 0)
    }

    /// Under 4 MiB above the footprint there is little to free; without a signal the step's reason is the audit's.
    func testLittleToFreeAndNoSignalAreNotApplicable() throws {
        let little = ReportBuilder.runReport(Self.record(after: 2, held: 3))
        XCTAssertEqual(little.audits["memory.respond-to-warnings"]?.scoreDisplayMode, .notApplicable)
        XCTAssertTrue(little.audits["memory.respond-to-warnings"]?.explanation?.contains("little to free") ?? false)
        var unsent = Self.record(after: 1)
        unsent.memory?.deliveries = []
        unsent.steps[1].problem = "not applicable: no memory-warning signal is configured for this program"
        let report = ReportBuilder.runReport(unsent)
        XCTAssertEqual(report.audits["memory.respond-to-warnings"]?.explanation, unsent.steps[1].problem)
        XCTAssertEqual(report.metrics[MetricName.memoryFreedOnWarningBytes]?.unavailable, unsent.steps[1].problem)
    }

    /// The second after each signal the harness sent is not idle: a wait whose first second follows a
    /// warning has that second left out, and the idle metric's source says so.
    func testTheSecondAfterAHarnessSignalIsNotIdle() throws {
        var record = Self.record(after: 1.5)
        let start = record.startTime
        let warning = start + 2 * Self.s
        func sample(_ time: UInt64, wakeups: Int) -> ProcessSample {
            ProcessSample(time: time, threads: [ThreadSample(tid: 10, name: "p", voluntaryContextSwitches: wakeups,
                                                             involuntaryContextSwitches: 0, onCPUNanoseconds: 0, state: "S")])
        }
        let points = (0...10).map { sample(warning + UInt64($0) * Self.s / 5, wakeups: $0 < 5 ? 10 * $0 : 40) }
        record.samples += points
        record.steps.append(StepRecord(index: 2, step: .wait(seconds: 2), start: warning, end: warning + 2 * Self.s, phaseStart: warning,
                                       sampleAtStart: points.first, sampleAtEnd: points.last))
        let analysis = RunAnalysis(record)
        let account = try XCTUnwrap(analysis.idleAccounts.first)
        XCTAssertEqual(account.excludedSeconds[.harnessSignal] ?? 0, 1, accuracy: 1e-9)
        XCTAssertEqual(account.idleWakeups, 0, "the 40 wakeups answering the warning are the harness's")
        let metrics = MetricExtraction.metrics(of: analysis)
        XCTAssertEqual(metrics[MetricName.cpuIdleWakeupsPerSecond]?.source, MetricExtraction.idleWithoutHarnessSignals)
    }
}
