import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalWorkloads

/// The memory pairs, run for real under their default scenarios: the bad one must score below
/// 0.5 on its audit and the good one 0.9 or more.
final class MemoryWorkloadPairTests: XCTestCase {
    /// Run once as `frugal run` schedules them, with the other pair classes' runs
    /// (``ScheduledRuns/pairs``): the gated start-up and session apps side by side, the
    /// pressured and warned ones alone.
    static let workloads = ["atlas.loads-whole", "atlas.maps", "startup.preloads", "startup.lazy",
                            "session.leaks", "session.steady", "gallery.hoards", "gallery.purges"]

    func report(_ workload: String) throws -> RunReport {
        let record = try ScheduledRuns.pairs.record(workload)
        let definition = try XCTUnwrap(WorkloadCatalogue.named(workload))
        XCTAssertEqual(record.scenario, definition.defaultScenarios.first, workload)
        XCTAssertTrue([RunOutcome.completed, .killedMemory].contains(record.outcome), "\(workload): \(record.outcome) \(record.outcomeDetail ?? "")")
        return ReportBuilder.runReport(record)
    }

    func assertSeparated(_ audit: String, bad: String, good: String, file: StaticString = #filePath, line: UInt = #line) throws -> (RunReport, RunReport) {
        let badReport = try report(bad), goodReport = try report(good)
        let badAudit = try XCTUnwrap(badReport.audits[audit]), goodAudit = try XCTUnwrap(goodReport.audits[audit])
        XCTAssertLessThan(try XCTUnwrap(badAudit.score, badAudit.explanation ?? ""), 0.5, "\(bad): \(badAudit.displayValue)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(goodAudit.score, goodAudit.explanation ?? ""), 0.9, "\(good): \(goodAudit.displayValue)", file: file, line: line)
        VerdictAssertions.assertClean(bad: badReport, good: goodReport, file: file, line: line)
        return (badReport, goodReport)
    }

    /// Held anonymous growth from outside (smaps_rollup): the peak after the first `show` minus
    /// the last sample before it, so the Swift runtime's own few MiB do not count.
    func anonymousGrowth(_ report: RunReport) throws -> Double {
        let timeline = report.timeline
        let show = try XCTUnwrap(timeline.steps.first { $0.step == "input(show)" }).start
        let samples = try XCTUnwrap(timeline.memory)
        let before = try XCTUnwrap(samples.last { $0.time < show }).anonymousBytes
        let peak = try XCTUnwrap(samples.filter { $0.time >= show }.map(\.anonymousBytes).max())
        return Double(peak - before)
    }

    func testAtlasLoadedWholeFailsAndMappedPassesMapLargeResources() throws {
        let (whole, mapped) = try assertSeparated("memory.map-large-resources", bad: "atlas.loads-whole", good: "atlas.maps")
        XCTAssertGreaterThanOrEqual(try anonymousGrowth(whole), Double(64 << 20), "the 64 MiB copy is anonymous memory")
        XCTAssertLessThan(try anonymousGrowth(mapped), Double(2 << 20), "touching 1 MiB of a mapping adds no anonymous memory")
        XCTAssertLessThan(try XCTUnwrap(mapped.metrics[MetricName.memoryLargeResourceCopyBytes]?.value), Double(2 << 20))
        // Dropped on the warning, the 256 pages of the region come back one major fault each
        // (MADV_RANDOM: no readahead); a page or two may still be cached, hence the margin.
        XCTAssertGreaterThan(try XCTUnwrap(mapped.metrics[MetricName.memoryRetouchMajorFaults]?.value), 200)
    }

    func testPreloadingStartupFailsAndLazyStartupPassesLazyResources() throws {
        _ = try assertSeparated("memory.lazy-resources", bad: "startup.preloads", good: "startup.lazy")
    }

    func testLeakingSessionFailsAndSteadySessionPassesNoLeaks() throws {
        _ = try assertSeparated("memory.no-leaks", bad: "session.leaks", good: "session.steady")
    }

    func testHoardingGalleryFailsAndPurgingGalleryPassesRespondToWarnings() throws {
        let (hoards, _) = try assertSeparated("memory.respond-to-warnings", bad: "gallery.hoards", good: "gallery.purges")
        if hoards.outcome == .killedMemory { XCTAssertEqual(hoards.audits["memory.survive-pressure"]?.score, 0) }
    }
}
