import Foundation
import XCTest
@testable import FrugalCore

/// The memory model on hand-made facts, with exact expected numbers.
final class MemoryAnalysisTests: XCTestCase {
    static let ms: UInt64 = 1_000_000
    static let s: UInt64 = 1_000_000_000
    static let mib = 1 << 20

    func testSmapsRollupSplitsAnonymousFileAndLazyFree() throws {
        let text = """
        55d0c0a00000-7ffd5a1f2000 ---p 00000000 00:00 0                          [rollup]
        Rss:              131072 kB
        Pss:              120000 kB
        Anonymous:        102400 kB
        LazyFree:          40960 kB
        Swap:                  0 kB
        """
        let memory = try XCTUnwrap(MemoryBreakdown.parseSmapsRollup(text))
        // anonymous = 102400 − 40960 = 61440 kB; file = 131072 − 102400 = 28672 kB.
        XCTAssertEqual(memory, MemoryBreakdown(anonymousBytes: 61440 * 1024, fileBytes: 28672 * 1024, lazyFreeBytes: 40960 * 1024))
        XCTAssertEqual(memory.heldBytes, 90112 * 1024)
        XCTAssertNil(MemoryBreakdown.parseSmapsRollup("Rss: 4 kB\n"), "no Anonymous line: not a rollup")
    }

    func testByteCountsParseAndFormat() {
        XCTAssertEqual(ByteCount.parse("48MiB"), 50_331_648)
        XCTAssertEqual(ByteCount.parse("1.5 KiB"), 1536)
        XCTAssertEqual(ByteCount.parse("4096"), 4096)
        XCTAssertNil(ByteCount.parse("lots"))
        XCTAssertEqual(ByteCount.format(48 << 20), "48MiB")
        XCTAssertEqual(ByteCount.format(1000), "1000B")
        XCTAssertEqual(ByteCount.display(1_572_864), "1.5 MiB")
    }

    func testMemoryStepsRoundTripAsTheirYAMLShape() throws {
        let steps: [ScenarioStep] = [.memoryWarning(level: .critical), .pressure(limitBytes: 48 << 20), .balloon(bytes: 4096)]
        let json = try JSONEncoder().encode(steps)
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"[{"memoryWarning":"critical"},{"pressure":50331648},{"balloon":4096}]"#)
        XCTAssertEqual(try JSONDecoder().decode([ScenarioStep].self, from: json), steps)
        let written = try JSONDecoder().decode([ScenarioStep].self, from: Data(#"[{"pressure":"64MiB"},{"balloon":"1 GiB"}]"#.utf8))
        XCTAssertEqual(written, [.pressure(limitBytes: 64 << 20), .balloon(bytes: 1 << 30)])
        XCTAssertThrowsError(try JSONDecoder().decode([ScenarioStep].self, from: Data(#"[{"memoryWarning":"severe"}]"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode([ScenarioStep].self, from: Data(#"[{"pressure":0}]"#.utf8)))
        XCTAssertEqual(ScenarioStep.pressure(limitBytes: 48 << 20).description, "pressure(48MiB)")
    }

    func testPatternContentIsTheSameWhetherMadeWholeOrByTheByte() {
        let resource = BundleResource(path: "p", bytes: 5000, content: .pattern, seed: 9)
        let whole = resource.contents(offset: 300, count: 4000)
        let byByte: [UInt8] = (300..<4300).map { (index: Int) -> UInt8 in UInt8(33 + ((index + 9) % 251) % 94) }
        XCTAssertEqual(whole, byByte)
    }

    /// A run at 10 s: a warning delivered at +1 s with 40 MiB held, 30 MiB at +100 ms, 20 MiB at
    /// +1 s; the app held 25 MiB reclaimable and its handler returned at +1.012 s.
    static func warningRecord(reclaimable: Int = 25 << 20) -> RunRecord {
        let start = 10 * s
        func held(_ mib: Int) -> MemoryBreakdown { MemoryBreakdown(anonymousBytes: mib << 20, fileBytes: 0, lazyFreeBytes: 0) }
        let delivery = WarningDelivery(sequence: 3, level: .warning, origin: "scenario", time: start + 1 * s,
                                       atDelivery: held(40), after100ms: held(30), after1s: held(20))
        let handled = MemoryEvent(kind: .warningHandled, level: .warning, handlerStart: start + 1 * s + 2 * ms, handlerEnd: start + 1 * s + 12 * ms,
                                  sequence: 3, before: MemoryLedger(cacheBytes: reclaimable), after: MemoryLedger())
        var record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: start, endTime: start + 3 * s, pid: 1,
                               steps: [StepRecord(index: 0, step: .memoryWarning(level: .warning), start: start + 1 * s, end: start + 2 * s)],
                               events: [WorkloadEvent(time: start + 1 * s + 12 * ms, body: .memory(handled))],
                               samples: [ProcessSample(time: start + 500 * ms, threads: [], memory: held(15))],
                               outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        record.memory = MemoryRunFacts(deliveries: [delivery])
        return record
    }

    func testWarningResponseIsMeasuredFromDeliveryToTheHandlersReturn() throws {
        let record = Self.warningRecord()
        let memory = MemoryAnalysis(record)
        XCTAssertEqual(memory.warnings.count, 1)
        XCTAssertEqual(try XCTUnwrap(memory.warnings[0].responseMs), 12, accuracy: 1e-9)
        // Freed 20 MiB of the 25 MiB reclaimable within 1 s: 5/25 = 0.2 still held.
        XCTAssertEqual(try XCTUnwrap(MemoryAnalysis.residualFraction(memory.warnings[0])), 0.2, accuracy: 1e-12)
        let metrics = MetricExtraction.metrics(of: RunAnalysis(record))
        XCTAssertEqual(metrics[MetricName.memoryFreedOnWarningBytes]?.value, Double(20 << 20))
        XCTAssertEqual(metrics[MetricName.memoryFreedWithin100msBytes]?.value, Double(10 << 20))
        let audits = Audits.evaluate(RunAnalysis(record), metrics: metrics)
        // The audit judges the footprint: 15 MiB at launch, 40 at the warning, 20 a second later:
        // 5 of the 25 MiB gained still held.
        XCTAssertEqual(try XCTUnwrap(audits["memory.respond-to-warnings"]?.numericValue), 0.2, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(audits["memory.respond-immediately"]?.numericValue), 12, accuracy: 1e-9)
        // More freed than was reclaimable (the kernel took file pages too): clamped to 0.
        let generous = MemoryAnalysis(Self.warningRecord(reclaimable: 10 << 20))
        XCTAssertEqual(MemoryAnalysis.residualFraction(generous.warnings[0]), 0)
    }

    /// The handler's wait for a CPU (its run-queue time) is the machine's: a handler preempted
    /// for 7 of its 10 ms beside CPU hogs responded in 5 ms of its own, not 12.
    func testTheHandlersWaitForACPUIsLeftOutOfTheResponse() throws {
        var record = Self.warningRecord()
        let (s, ms) = (Self.s, Self.ms)
        let start = 10 * s
        let handler = HandlerRecord(name: "memoryWarning", start: start + 1 * s + 2 * ms, end: start + 1 * s + 12 * ms,
                                    runQueueNanoseconds: 7 * ms)
        record.events.append(WorkloadEvent(time: start + 1 * s + 12 * ms, body: .handler(handler)))
        let memory = MemoryAnalysis(record)
        XCTAssertEqual(memory.warnings[0].waitingForCPU, 7 * ms)
        XCTAssertEqual(try XCTUnwrap(memory.warnings[0].responseMs), 5, accuracy: 1e-9)
        let analysis = RunAnalysis(record)
        let audits = Audits.evaluate(analysis, metrics: MetricExtraction.metrics(of: analysis))
        XCTAssertEqual(try XCTUnwrap(audits["memory.respond-immediately"]?.numericValue), 5, accuracy: 1e-9)
    }

    func testAMissingSampleIsUnavailableNotZero() {
        var record = Self.warningRecord()
        record.memory?.deliveries[0].after1s = nil
        let metrics = MetricExtraction.metrics(of: RunAnalysis(record))
        XCTAssertNil(metrics[MetricName.memoryFreedOnWarningBytes]?.value)
        XCTAssertNotNil(metrics[MetricName.memoryFreedOnWarningBytes]?.unavailable)
        XCTAssertEqual(Audits.evaluate(RunAnalysis(record), metrics: metrics)["memory.respond-to-warnings"]?.scoreDisplayMode, .unavailable)
    }

    func testResourcesLoadedAtLaunchAndNeverUsedAndPeakLargeCopies() {
        let t: UInt64 = 100
        let events: [(UInt64, MemoryEvent)] = [
            (t + 1, MemoryEvent(kind: .resourceLoaded, resource: "a", bytes: 3 * Self.mib)),
            (t + 2, MemoryEvent(kind: .resourceLoaded, resource: "b", bytes: 2 * Self.mib)),
            (t + 3, MemoryEvent(kind: .resourceMapped, resource: "m", bytes: 64 * Self.mib)),
            (t + 10, MemoryEvent(kind: .resourceFirstUse, resource: "a")),
            (t + 20, MemoryEvent(kind: .resourceReleased, resource: "a", bytes: 3 * Self.mib)),
            (t + 20, MemoryEvent(kind: .resourceLoaded, resource: "c", bytes: 1 * Self.mib)),
            (t + 30, MemoryEvent(kind: .resourceLoaded, resource: "d", bytes: 4 * Self.mib)),
        ]
        let record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: t, endTime: t + 100, pid: 1, steps: [],
                               events: events.map { WorkloadEvent(time: $0.0, body: .memory($0.1)) }, samples: [],
                               outcome: .completed, outcomeDetail: nil, exitStatus: nil, resourceUsage: nil)
        let memory = MemoryAnalysis(record)
        // Launch ends at t+5: a (used), b (never used, 2 MiB), m (mapped, never used, 64 MiB).
        let unused = memory.unusedLaunchBytes(launchEnd: t + 5)
        XCTAssertEqual(unused.bytes, 66 * Self.mib)
        XCTAssertEqual(unused.names, ["b", "m"])
        // Copies over 1 MiB: a 3 (until t+20) + b 2 → 5; then b 2 + d 4 → 6 (c is exactly 1 MiB: not large).
        XCTAssertEqual(memory.peakLargeCopyBytes.bytes, 6 * Self.mib)
    }

    func testGrowthPerCycleIsTheMedianDifference() {
        XCTAssertNil(MemoryAnalysis.growthPerCycle([1, 2]))
        // Differences 10, 2, 2, 4: median (2 + 4) / 2 = 3.
        XCTAssertEqual(MemoryAnalysis.growthPerCycle([0, 10, 12, 14, 18]), 3)
        XCTAssertEqual(MemoryAnalysis.growthPerCycle([5, 5, 5]), 0)
    }

    func testCycleEndsComeFromTheSettledSampleAfterEachCycleInput() {
        func sample(_ time: UInt64, _ anonymous: Int) -> ProcessSample {
            ProcessSample(time: time, threads: [], memory: MemoryBreakdown(anonymousBytes: anonymous, fileBytes: 0, lazyFreeBytes: 0))
        }
        var steps: [StepRecord] = [StepRecord(index: 0, step: .launch, start: 0, end: 1)]
        for cycle in 0..<4 {
            let base = UInt64(cycle * 10 + 2)
            steps.append(StepRecord(index: steps.count, step: .input(kind: "cycle"), start: base, end: base + 1))
            steps.append(StepRecord(index: steps.count, step: .wait(seconds: 0.3), start: base + 1, end: base + 5,
                                    sampleAtStart: sample(base + 2, 1000 + cycle * 500)))
        }
        steps.append(StepRecord(index: steps.count, step: .wait(seconds: 1), start: 50, end: 60, sampleAtStart: sample(51, 99999)))
        let record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: 0, endTime: 60, pid: 1, steps: steps, events: [],
                               samples: [], outcome: .completed, outcomeDetail: nil, exitStatus: nil, resourceUsage: nil)
        XCTAssertEqual(MemoryAnalysis.cycleEnds(record).map(\.anonymous), [1000, 1500, 2000, 2500], "the last wait follows no cycle")
        let audit = Audits.evaluate(RunAnalysis(record), metrics: MetricExtraction.metrics(of: RunAnalysis(record)))["memory.no-leaks"]
        XCTAssertEqual(audit?.numericValue, 500)
    }

    func testMemoryAuditsAreNotApplicableWithoutAnythingToJudge() {
        let record = RunAnalysisTests.record()
        let audits = Audits.evaluate(RunAnalysis(record), metrics: MetricExtraction.metrics(of: RunAnalysis(record)))
        for id in ["memory.respond-to-warnings", "memory.respond-immediately", "memory.free-on-background", "memory.lazy-resources",
                   "memory.map-large-resources", "memory.no-leaks", "memory.survive-pressure"] {
            XCTAssertEqual(audits[id]?.scoreDisplayMode, .notApplicable, id)
        }
    }

    func testSurvivePressureFailsOnAnOOMKillAndBackgroundRatioUsesHeldMemory() {
        var record = Self.warningRecord()
        record.steps.append(StepRecord(index: 1, step: .pressure(limitBytes: 1 << 20), start: 11 * Self.s, end: 11 * Self.s))
        record.memory?.cgroupController = "v1"
        record.memory?.killedByOOM = true
        var audits = Audits.evaluate(RunAnalysis(record), metrics: MetricExtraction.metrics(of: RunAnalysis(record)))
        XCTAssertEqual(audits["memory.survive-pressure"]?.score, 0)
        record.memory?.killedByOOM = false
        audits = Audits.evaluate(RunAnalysis(record), metrics: MetricExtraction.metrics(of: RunAnalysis(record)))
        XCTAssertEqual(audits["memory.survive-pressure"]?.score, 1)

        // Launch footprint 8 MiB (after the ack at 1.25 s); 40 MiB held before entering the
        // background at 2 s; 16 MiB late in it: 8 of the 32 MiB gained kept, 0.25.
        func sample(_ time: UInt64, _ mib: Int) -> ProcessSample {
            ProcessSample(time: time, threads: [], memory: MemoryBreakdown(anonymousBytes: mib << 20, fileBytes: 0, lazyFreeBytes: 6 << 20))
        }
        var background = RunAnalysisTests.record()
        let start = background.startTime
        background.events.append(WorkloadEvent(time: start + 2 * Self.s, body: .stateChanged(StateChange(from: .inactive, to: .background))))
        background.events.append(WorkloadEvent(time: start + 5 * Self.s, body: .stateChanged(StateChange(from: .background, to: .inactive))))
        background.samples = [sample(start + 1300 * Self.ms, 8), sample(start + 1 * Self.s + 800 * Self.ms, 40), sample(start + 3 * Self.s, 20),
                              sample(start + 4 * Self.s, 16), sample(start + 6 * Self.s, 40)]
        let ratio = Audits.evaluate(RunAnalysis(background), metrics: [:])["memory.free-on-background"]
        XCTAssertEqual(ratio?.numericValue, 0.25)

        // An app that gained only 2 MiB since launch has little to free: not applicable, saying why.
        background.samples = [sample(start + 1300 * Self.ms, 38), sample(start + 1 * Self.s + 800 * Self.ms, 40), sample(start + 4 * Self.s, 40)]
        let little = Audits.evaluate(RunAnalysis(background), metrics: [:])["memory.free-on-background"]
        XCTAssertEqual(little?.scoreDisplayMode, .notApplicable)
        XCTAssertNil(little?.score)
        XCTAssertTrue(little?.explanation?.contains("little to free") ?? false, little?.explanation ?? "")
    }
}
