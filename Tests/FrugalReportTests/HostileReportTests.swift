import Foundation
import XCTest
@testable import FrugalCore
@testable import FrugalReport
import FrugalTestSupport

/// Reports from other jobs hold any JSON number and any text; report sets are written whole.
final class HostileReportTests: XCTestCase {
    /// `hostileReport` with every score 1e17, every value 1e308 and an endless timeline, through JSON.
    static func outOfRangeReport() throws -> Report {
        var report = ReportTests.hostileReport()
        for index in report.runs.indices {
            report.runs[index].durationSeconds = 1e308
            report.runs[index].timeline.duration = .infinity
            report.runs[index].score = 1e17
            for (id, var audit) in report.runs[index].audits {
                audit.score = 1e17
                audit.numericValue = 1e308
                report.runs[index].audits[id] = audit
            }
            // Resident sizes whose sum overflows Int: the memory lane adds them up.
            report.runs[index].timeline.memory = [
                MemoryLaneSample(time: 0.5, anonymousBytes: .max, fileBytes: .max, lazyFreeBytes: .max),
                MemoryLaneSample(time: 1e300, anonymousBytes: .max, fileBytes: 1, lazyFreeBytes: 0),
            ]
            for (name, var metric) in report.runs[index].metrics {
                metric.value = 1e308
                report.runs[index].metrics[name] = metric
            }
        }
        report.results = ReportBuilder.aggregate(report.runs)
        for index in report.results.indices {
            report.results[index].score = 1e17
            report.results[index].workload = "evil\n::error::pwned\u{1B}[31m"
        }
        // Through the file format, as `frugal report` and `frugal compare` read it.
        return try ReportJSON.decode(ReportJSON.encode(report))
    }

    func testEveryRendererTakesOutOfRangeNumbers() throws {
        let report = try Self.outOfRangeReport()
        XCTAssertTrue(HTMLReportRenderer.render(report).contains("</html>"))
        let markdown = MarkdownSummaryRenderer.render(report)
        XCTAssertTrue(markdown.contains(String(Int.max)), markdown)
        XCTAssertTrue(JUnitRenderer.render(report).hasPrefix("<?xml"))
        let comparison = ReportComparator.compare(base: report, head: report, baseline: "b.json")
        XCTAssertFalse(ComparisonTextRenderer.render(comparison).isEmpty)
        var withChecks = report
        withChecks.comparison = comparison
        withChecks.assertions = AssertionEvaluator.evaluate(AssertionSet.merging(preset: .strict, overrides: []), results: report.results)
        XCTAssertFalse(MarkdownSummaryRenderer.render(withChecks).isEmpty)
        _ = GitHubAnnotations.render(withChecks)
    }

    /// Round two (issue 24, item 7): an environment's memory at Int's end, compared against a
    /// normal one, and wakeup counts at Int's end in one pixel column of a timeline.
    func testExtremeEnvironmentAndTimelineNumbersDoNotTrap() throws {
        var low = SyntheticReports.environment
        low.memoryBytes = Int.min
        var high = SyntheticReports.environment
        high.memoryBytes = Int.max
        XCTAssertFalse(low.machineDifferences(from: high).isEmpty)
        XCTAssertFalse(high.machineDifferences(from: low).isEmpty)
        let samples = [ActivitySample(time: 1, interval: 1, wakeups: Int.max, cpuSeconds: 1),
                       ActivitySample(time: 1.0001, interval: 1, wakeups: Int.max, cpuSeconds: 1),
                       ActivitySample(time: 1.0002, interval: 1, wakeups: Int.min, cpuSeconds: 1)]
        XCTAssertFalse(TimelineSVG.wakeupsLane(samples, top: 0, x: { _ in 10 }).isEmpty)
    }

    /// A fresh probe of issue 24: a report whose wakeup-cause shares were NaN, ±∞ or 1e308
    /// (a file anyone can write) killed `frugal report --html` and `frugal merge` with SIGILL in
    /// the HTML renderer's `Int(_:)` of the percent.
    func testWakeupCauseSharesAtTheirExtremesDoNotTrap() throws {
        for share in [Double.nan, .infinity, -.infinity, 1e308, -1e308] {
            var report = ReportTests.hostileReport()
            var causes = RunWakeupCauses(source: "test", scope: "idle", traced: 10, attributed: 5, scopeWakeups: 10,
                                         top: [WakeupCauseShare(cause: WakeupCause(kind: .timer, symbol: "tick", module: "App"), count: 5, share: share, threads: ["main (1)"])])
            causes.attributedShare = share
            for index in report.runs.indices { report.runs[index].wakeupCauses = causes }
            // Through the file format, as `frugal report` reads it.
            let decoded = try ReportJSON.decode(ReportJSON.encode(report))
            let html = HTMLReportRenderer.render(decoded)
            XCTAssertTrue(html.contains("</html>"), "share \(share)")
            XCTAssertTrue(html.contains("Top causes of"), "share \(share): the causes are shown")
            XCTAssertNotNil(causes.topCauseText)
        }
    }

    func testANameWithANewlineCannotStartAWorkflowCommand() throws {
        var report = try Self.outOfRangeReport()
        report.results[0].score = 0.1
        for (id, var audit) in report.results[0].audits {
            audit.score = 0.1
            report.results[0].audits[id] = audit
        }
        let lines = GitHubAnnotations.render(report)
        XCTAssertFalse(lines.isEmpty)
        for line in lines {
            XCTAssertFalse(line.contains("\n") || line.contains("\u{1B}"), line)
            XCTAssertTrue(line.hasPrefix("::warning ") || line.hasPrefix("::error "), line)
        }
        let markdown = MarkdownSummaryRenderer.render(report)
        XCTAssertFalse(markdown.contains("\u{1B}"))
        XCTAssertFalse(markdown.contains("\n::error"))
    }

    // MARK: - The report set, written whole

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-set-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testASetReplacesTheOldOneWholeAndLeavesNoStaging() throws {
        let parent = try temporaryDirectory()
        let out = parent.appendingPathComponent("latest")
        try ReportDirectory.replace(out, with: [ReportDirectory.File(path: "report.json", data: Data("old".utf8)), ReportDirectory.File(path: "summary.md", data: Data("old".utf8)), ReportDirectory.File(path: "stale.svg", data: Data())],
                                    replaceable: ["report.json", "summary.md", "stale.svg"])
        try ReportDirectory.replace(out, with: [ReportDirectory.File(path: "report.json", data: Data("new".utf8)), ReportDirectory.File(path: "summary.md", data: Data("new".utf8))],
                                    replaceable: ["report.json", "summary.md", "stale.svg"])
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8), "new")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), ["report.json", "summary.md"],
                       "the old set went as a whole")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), ["latest"], "no staging directory left")
    }

    func testADirectoryWithOtherFilesKeepsThem() throws {
        let out = try temporaryDirectory()
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        try ReportDirectory.replace(out, with: [ReportDirectory.File(path: "report.json", data: Data("new".utf8))], replaceable: ["report.json"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), ["notes.txt", "report.json"])
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path)
            .contains { $0.contains(out.lastPathComponent + ".frugal-staging") })
    }

    func testAFailedWriteLeavesTheOldSetAndNoStaging() throws {
        let parent = try temporaryDirectory()
        let out = parent.appendingPathComponent("latest")
        try ReportDirectory.replace(out, with: [ReportDirectory.File(path: "report.json", data: Data("old".utf8))], replaceable: ["report.json"])
        // A path that cannot be written inside the staging directory: a file where a folder must be.
        XCTAssertThrowsError(try ReportDirectory.replace(out, with: [ReportDirectory.File(path: "report.json", data: Data("new".utf8)), ReportDirectory.File(path: "report.json/x", data: Data())],
                                                         replaceable: ["report.json"]))
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), ["latest"])
    }

    /// A writer killed mid-write (SIGKILL, a crash) leaves its staging directory; the next one
    /// to take the directory's lock removes it, and only a dead writer's (issue 24, fresh probe:
    /// ten crashed merges left ten beside one `--out`, never swept).
    func testADeadWritersStagingIsRemovedByTheNextLock() throws {
        let parent = try temporaryDirectory()
        let out = parent.appendingPathComponent("latest")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = parent.appendingPathComponent(".latest.frugal-staging-\(child.processIdentifier)-0")
        let deadInside = out.appendingPathComponent(".frugal-staging-\(child.processIdentifier)-3")
        let live = parent.appendingPathComponent(".latest.frugal-staging-\(getppid())-0")
        for directory in [dead, deadInside, live] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("traces"), withIntermediateDirectories: true)
        }
        // The lock file a writer that died holding the lock leaves, its pid inside.
        let lockFile = parent.appendingPathComponent(".latest.frugal-lock")
        try Data("\(child.processIdentifier)\n".utf8).write(to: lockFile)
        withExtendedLifetime(try ReportDirectoryLock(out)) {}
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead.path), "a dead writer's staging beside the set is removed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: deadInside.path), "and inside a mount point's")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live.path), "a live process's is left")
        XCTAssertFalse(FileManager.default.fileExists(atPath: lockFile.path), "the holder removes its lock file as it lets go")
    }

    /// A lock file made afresh says no writer died holding the lock (each removes its file as it
    /// lets go): the parent is not listed for staging directories then (issue 31: `/tmp` held
    /// thousands of entries), and one there without a lock file is not looked for.
    func testAFreshLockDoesNotLookForStaging() throws {
        let parent = try temporaryDirectory()
        let out = parent.appendingPathComponent("latest")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let orphan = parent.appendingPathComponent(".latest.frugal-staging-\(child.processIdentifier)-0")
        try FileManager.default.createDirectory(at: orphan, withIntermediateDirectories: true)
        withExtendedLifetime(try ReportDirectoryLock(out)) {}
        XCTAssertTrue(FileManager.default.fileExists(atPath: orphan.path), "no lock file was left, so no staging was looked for")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted(), [orphan.lastPathComponent], "the lock file is gone again")
    }

    func testCheckWritableRefusesAFileAndAnUnwritablePlace() throws {
        let parent = try temporaryDirectory()
        let file = parent.appendingPathComponent("afile")
        try Data().write(to: file)
        XCTAssertThrowsError(try ReportDirectory.checkWritable(file)) { XCTAssertTrue("\($0)".contains("not a directory"), "\($0)") }
        XCTAssertThrowsError(try ReportDirectory.checkWritable(URL(fileURLWithPath: "/proc/frugal-out")))
        XCTAssertNoThrow(try ReportDirectory.checkWritable(parent.appendingPathComponent("new/latest")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.appendingPathComponent("new").path), [], "the check leaves nothing")
    }
}
