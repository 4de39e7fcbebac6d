import Foundation
import XCTest
@testable import FrugalKit
import FrugalCore
import FrugalProbe
import FrugalReport

/// The main thread's hardware counters inside a FrugalKit app (issue 31, item 4): PAPI on the
/// thread where the CPU has a PMU, unavailable with PAPI's reason where it has none (this VM),
/// and the path — handler meter, event stream, record, metrics, report.json, comparison, HTML —
/// driven end to end by a test double of the thread's counter source.
final class ThreadHardwareCounterTests: XCTestCase {
    /// A thread that retires `instructionsPerRead` instructions between reads, at 2 per cycle,
    /// its counters running `ratio` of the time they were enabled.
    final class FixedThreadCounters: ThreadCounterSource {
        let instructionsPerRead: UInt64
        let ratio: Double
        private var reads: UInt64 = 0
        init(instructionsPerRead: UInt64, ratio: Double = 1) {
            self.instructionsPerRead = instructionsPerRead
            self.ratio = ratio
        }
        let source = "double:fixed-thread-counters"
        var availability: [CounterAvailability] {
            HardwareCounterReading.papiThreadEvents.map { CounterAvailability(name: $0, source: "papi", available: true) }
        }
        func read() -> ThreadCounters.Reading {
            reads += 1
            let enabled = reads * 1_000_000
            let hardware = HardwareCounterReading(instructions: reads * instructionsPerRead, cycles: reads * instructionsPerRead / 2,
                                                  cacheMisses: reads * 10, branchMisses: reads * 5, timeEnabledNanoseconds: enabled,
                                                  timeRunningNanoseconds: UInt64(Double(enabled) * ratio))
            return ThreadCounters.Reading(cpuNanoseconds: enabled, contextSwitches: 0, hardware: hardware)
        }
    }

    /// Runs `handlers` handlers through a meter reading `counters` on this thread, reads the event
    /// stream back as the harness does, and builds the run's report from it.
    func report(counters: any ThreadCounterSource, handlers: Int = 3, blackBox: Bool = false) throws -> RunReport {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let meter = HandlerMeter(emitter: EventEmitter(fd: fds[1]), counters: counters)
        let start = MonotonicClock.now()
        meter.emitter.emit(.hello(Hello(pid: getpid(), mainThreadID: getpid(), workload: "w", counters: meter.availability)))
        for index in 0..<handlers { meter.measure("timer:\(index)") {} }
        close(fds[1])
        let data = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
        let events = try data.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(WorkloadEvent.self, from: Data($0)) }
        XCTAssertEqual(events.count, 1 + 2 * handlers, "a hello, and each handler's start and record")
        let record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: start, endTime: MonotonicClock.now(), pid: getpid(),
                               steps: [], events: events, samples: [], outcome: .completed, outcomeDetail: nil, exitStatus: nil,
                               resourceUsage: nil, blackBox: blackBox)
        return ReportBuilder.runReport(record)
    }

    func testTheMainThreadsCountsReachTheReportTheComparisonAndTheHTML() throws {
        // Each handler reads twice: 3 handlers × 1 read apart × 1,000,000 instructions.
        let run = try report(counters: FixedThreadCounters(instructionsPerRead: 1_000_000))
        XCTAssertEqual(run.metrics[MetricName.mainThreadInstructions]?.value, 3_000_000)
        XCTAssertEqual(run.metrics[MetricName.mainThreadCycles]?.value, 1_500_000)
        XCTAssertEqual(run.metrics[MetricName.mainThreadInstructionsPerCycle]?.value, 2)
        XCTAssertEqual(run.metrics[MetricName.mainThreadCacheMisses]?.value, 30)
        XCTAssertEqual(run.metrics[MetricName.mainThreadBranchMisses]?.value, 15)
        XCTAssertEqual(run.metrics[MetricName.mainThreadCounterMultiplexing]?.value, 1)
        let source = try XCTUnwrap(run.metrics[MetricName.mainThreadInstructions]?.source)
        XCTAssertTrue(source.contains("double:fixed-thread-counters") && source.contains("main thread"), source)
        XCTAssertFalse(source.contains("multiplexed"), source)

        // Five runs against five with 10 % more instructions per handler: a regression the comparison gates on.
        func suite(_ instructions: UInt64) throws -> Report {
            var runs: [RunReport] = []
            for repetition in 1...5 {
                var run = try report(counters: FixedThreadCounters(instructionsPerRead: instructions + UInt64(repetition)))
                run.repetition = repetition
                runs.append(run)
            }
            let environment = EnvironmentInfo(hostname: "h", kernel: "k", cores: 2, memoryBytes: 1, virtualMachine: true, papiVersion: nil,
                                              counters: [], notes: [])
            return Report(tool: ToolInfo(version: "t"), generatedAt: "g", environment: environment, runs: runs,
                          results: ReportBuilder.aggregate(runs))
        }
        let base = try suite(1_000_000), head = try suite(1_100_000)
        let decodedHead = try ReportJSON.decode(try ReportJSON.encode(head))
        XCTAssertEqual(decodedHead.runs.first?.metrics[MetricName.mainThreadInstructions]?.value, 3_300_003, "through report.json")
        let comparison = ReportComparator.compare(base: base, head: decodedHead, baseline: "base.json")
        XCTAssertTrue(comparison.regressions.contains { $0.name == MetricName.mainThreadInstructions }, "\(comparison.regressions.map(\.name))")
        XCTAssertTrue(HTMLReportRenderer.render(decodedHead).contains(MetricName.mainThreadInstructions))
    }

    func testAMultiplexedThreadCountSaysItWasScaled() throws {
        let run = try report(counters: FixedThreadCounters(instructionsPerRead: 1_000, ratio: 0.5))
        XCTAssertEqual(run.metrics[MetricName.mainThreadCounterMultiplexing]?.value, 0.5)
        let source = run.metrics[MetricName.mainThreadInstructions]?.source ?? ""
        XCTAssertTrue(source.contains("multiplexed"), source)
    }

    func testABlackBoxProgramHasNoMainThreadCountsAndSaysWhy() throws {
        let run = try report(counters: FixedThreadCounters(instructionsPerRead: 1_000), blackBox: true)
        let metric = try XCTUnwrap(run.metrics[MetricName.mainThreadInstructions])
        XCTAssertNil(metric.value)
        XCTAssertTrue(metric.unavailable?.contains("black-box") ?? false, metric.unavailable ?? "no reason")
    }

    /// The real counters on this machine: counts where the CPU has a PMU, PAPI's reason where it
    /// has none. Never 0 for "not counted".
    func testTheRealThreadCountersCountOrSayWhyNot() throws {
        let counters = ThreadCounters(preferPAPI: true)
        guard counters.source.hasPrefix("papi:") else {
            throw XCTSkip("PAPI cannot count here at all (\(counters.availability.compactMap(\.reason).joined(separator: "; ")))")
        }
        let run = try report(counters: counters)
        let instructions = try XCTUnwrap(run.metrics[MetricName.mainThreadInstructions])
        if let reason = counters.hardwareUnavailableReason {
            XCTAssertNil(instructions.value)
            let said = try XCTUnwrap(instructions.unavailable)
            XCTAssertTrue(said.contains("PAPI"), said)
            XCTAssertTrue(said.contains(reason), "\(said) | \(reason)")
            for name in [MetricName.mainThreadCycles, MetricName.mainThreadInstructionsPerCycle, MetricName.mainThreadCounterMultiplexing] {
                XCTAssertNil(run.metrics[name]?.value, name)
                XCTAssertNotNil(run.metrics[name]?.unavailable, name)
            }
            XCTAssertTrue(counters.source.hasSuffix("perf::TASK-CLOCK+perf::CONTEXT-SWITCHES"),
                          "the software counters still count: \(counters.source)")
            print("note: no hardware counters on this thread: \(said)")
        } else {
            XCTAssertGreaterThan(try XCTUnwrap(instructions.value), 0, "three handlers retire instructions")
            XCTAssertEqual(run.metrics[MetricName.mainThreadCounterMultiplexing]?.value, 1, "PAPI pins its group: never multiplexed")
        }
    }
}
