import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalWorkloads
import FrugalProbe

/// Real memory cgroups, real kernel reclaim and OOM kills, through the real harness.
final class MemoryPressureTests: XCTestCase {
    static func run(_ workload: String, _ scenario: Scenario) throws -> RunRecord {
        try ScenarioRunnerTests.runner().run(RunPlan(target: .builtIn(name: workload), scenario: scenario, repetition: 1,
                                                     bundleResources: WorkloadCatalogue.named(workload)?.bundleResources ?? []))
    }

    /// Skips, saying why, when the harness could not make a memory cgroup here.
    static func requireCgroup(_ record: RunRecord) throws {
        guard record.memory?.cgroupController != nil else {
            throw XCTSkip("no memory cgroup could be made: \(record.memory?.cgroupUnavailable ?? "unknown reason")")
        }
    }

    func testPurgeableBufferReclaimedUnderARealCgroupLimitReportsItselfDiscarded() throws {
        let scenario = Scenario(name: "purge", summary: "test", steps: [
            .launch, .input(kind: "fill"), .pressure(limitBytes: 16 << 20), .wait(seconds: 0.3), .input(kind: "check"), .terminate,
        ])
        let record = try Self.run("fixture.purgeable", scenario)
        try Self.requireCgroup(record)
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let discarded = record.events.compactMap { event -> MemoryEvent? in
            if case .memory(let memory) = event.body, memory.kind == .purgeableDiscarded { return memory }
            return nil
        }
        XCTAssertFalse(discarded.isEmpty, "beginAccess found the cookies of reclaimed pages gone")
        XCTAssertGreaterThan(discarded.reduce(0) { $0 + ($1.pages ?? 0) }, 0)
        XCTAssertFalse(record.memory?.pressureEvents.isEmpty ?? true, "the kernel's pressure events were caught")
        XCTAssertTrue(FileManager.default.fileExists(atPath: record.memory?.cgroupPath ?? "/") == false, "the cgroup was removed")
    }

    func testKernelPressureBecomesAWarningAndNormalOnceItPasses() throws {
        let scenario = Scenario(name: "passes", summary: "test", steps: [.launch] + Array(repeating: ScenarioStep.input(kind: "scroll"), count: 4)
                                + [.pressure(limitBytes: 48 << 20), .wait(seconds: 3.5), .terminate])
        let record = try Self.run("gallery.purges", scenario)
        try Self.requireCgroup(record)
        // The purging gallery frees on the warning, so the kernel goes quiet; 2 s later, `normal`.
        let levels = record.memory?.deliveries.map(\.level) ?? []
        XCTAssertEqual(levels.first, .warning, "\(levels)")
        XCTAssertEqual(levels.last, .normal, "\(levels)")
        let handled = record.events.compactMap { event -> MemoryWarningLevel? in
            if case .memory(let memory) = event.body, memory.kind == .warningHandled { return memory.level }
            return nil
        }
        XCTAssertEqual(handled.last, .normal, "the app's delegate was told the pressure passed")
    }

    /// The gallery pair under its default scenario, gallery-pressure: the pair tests' runs of it
    /// (``ScheduledRuns/pairs``), not two more.
    func testHoardingGalleryIsKilledOrFailsWhilePurgingGallerySurvivesAndPasses() throws {
        let hoards = try ScheduledRuns.pairs.record("gallery.hoards")
        try Self.requireCgroup(hoards)
        let purges = try ScheduledRuns.pairs.record("gallery.purges")
        XCTAssertEqual([hoards.scenario, purges.scenario], [ScenarioCatalogue.galleryPressure.name, ScenarioCatalogue.galleryPressure.name])
        let hoardsReport = ReportBuilder.runReport(hoards), purgesReport = ReportBuilder.runReport(purges)
        let hoardsScore = hoardsReport.audits["memory.respond-to-warnings"]?.score
        XCTAssertTrue(hoards.outcome == .killedMemory || (hoardsScore ?? 1) < 0.5,
                      "hoards: \(hoards.outcome.rawValue), respond-to-warnings \(String(describing: hoardsScore))")
        XCTAssertEqual(purges.outcome, .completed, purges.outcomeDetail ?? "")
        let audit = try XCTUnwrap(purgesReport.audits["memory.respond-to-warnings"])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(audit.score, audit.explanation ?? ""), 0.9, audit.displayValue)
        XCTAssertEqual(purgesReport.audits["memory.survive-pressure"]?.score, 1)
        let kernelMarks = purgesReport.timeline.memoryMarks?.filter { $0.kind == "kernel" } ?? []
        XCTAssertFalse(kernelMarks.isEmpty, "the kernel's pressure events are on the timeline")
        if hoards.outcome == .killedMemory {
            XCTAssertEqual(hoardsReport.audits["memory.survive-pressure"]?.score, 0)
        }
    }

    func testBalloonInTheSameCgroupPressuresTheWorkload() throws {
        let scenario = Scenario(name: "balloon", summary: "test", steps: [
            .launch, .input(kind: "fill"), .pressure(limitBytes: 64 << 20), .balloon(bytes: 40 << 20), .wait(seconds: 0.3),
            .input(kind: "check"), .terminate,
        ])
        let record = try Self.run("fixture.purgeable", scenario)
        try Self.requireCgroup(record)
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let balloon = try XCTUnwrap(record.steps.first { $0.step == .balloon(bytes: 40 << 20) })
        XCTAssertNil(balloon.problem)
        let check = record.events.compactMap { event -> String? in
            if case .mark(let mark) = event.body, mark.name == "purgeable-check" { return mark.detail }
            return nil
        }
        XCTAssertEqual(check.count, 1)
        XCTAssertFalse(check.first?.hasPrefix("8 of 8") ?? true, "the balloon's 40 MiB pushed the purgeable pages out: \(check)")
    }
}

/// Without a cgroup (not root, or switched off) the real parts say so and the simulated ones run.
final class SimulatedPressureTests: XCTestCase {
    func testWithoutACgroupPressureIsSimulatedAndTheReportSaysWhy() throws {
        setenv(MemoryPressure.disableVariable, "off", 1)
        defer { unsetenv(MemoryPressure.disableVariable) }
        let scenario = Scenario(name: "sim", summary: "test", steps: [.launch, .input(kind: "fill"), .pressure(limitBytes: 16 << 20),
                                                                      .balloon(bytes: 1 << 20), .terminate])
        let record = try MemoryPressureTests.run("fixture.purgeable", scenario)
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertNil(record.memory?.cgroupController)
        XCTAssertEqual(record.memory?.deliveries.map(\.level), [.critical], "a simulated critical warning stood in for the pressure")
        let pressure = try XCTUnwrap(record.steps.first { $0.step == .pressure(limitBytes: 16 << 20) })
        XCTAssertTrue(pressure.problem?.contains("simulated") ?? false, pressure.problem ?? "")
        XCTAssertTrue(record.steps.first { $0.step == .balloon(bytes: 1 << 20) }?.problem?.contains("no memory cgroup") ?? false)
        let audit = ReportBuilder.runReport(record).audits["memory.survive-pressure"]
        XCTAssertEqual(audit?.scoreDisplayMode, .notApplicable)
        XCTAssertTrue(audit?.explanation?.contains("FRUGAL_MEMORY_CGROUP=off") ?? false, audit?.explanation ?? "")
    }
}

final class MemoryCgroupTests: XCTestCase {
    func testAGroupLeftByADeadHarnessIsRemovedWhenTheNextIsMade() throws {
        guard case .success(let (_, parent)) = MemoryCgroup.ownGroup(), access(parent, W_OK) == 0 else {
            throw XCTSkip("no writable memory cgroup for this process")
        }
        // pid_max is at most 4194304: this pid cannot be alive.
        let stale = parent + "/frugal-test-4194305-deadbeef"
        XCTAssertEqual(mkdir(stale, 0o755), 0, String(cString: strerror(errno)))
        guard case .success(let group) = MemoryCgroup.create(label: "sweep") else { return XCTFail("could not make a group") }
        defer { group.remove() }
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: group.path))
        XCTAssertEqual(group.setLimit(64 << 20).appliedBytes, 64 << 20)
        XCTAssertEqual(group.oomKills, 0)
    }

    func testALimitRefusedAsBusyIsNeverSetBelowTheOneAskedFor() {
        // Refused at 64 MiB, then the app answered the pressure: what is charged is far below.
        XCTAssertEqual(MemoryCgroup.fallbackLimit(requested: 64 << 20, usage: 4 << 20), 64 << 20)
        // Still above: just over what is charged, so the next allocation meets the OOM killer.
        XCTAssertEqual(MemoryCgroup.fallbackLimit(requested: 64 << 20, usage: 100 << 20), (100 << 20) + (1 << 20))
        XCTAssertEqual(MemoryCgroup.fallbackLimit(requested: 64 << 20, usage: nil), (64 << 20) + (1 << 20))
    }

    func testTheChildJoinsItsGroupsBeforeExecAndIsTheOOMKillersFirstChoice() throws {
        guard case .success(let group) = MemoryCgroup.create(label: "placement") else {
            throw XCTSkip("no writable memory cgroup for this process")
        }
        defer { group.remove() }
        let child = try ChildProcess(arguments: ["/bin/sleep", "2"], environment: [:], cgroupProcs: group.procsPaths, oomScoreAdjustment: 1000)
        defer { child.kill(SIGKILL) }
        // The child moves itself (DirectSpawn.c, or the /bin/sh stub with FRUGAL_SPAWN=shell) and
        // execs sleep with the same pid: poll until the exec happened.
        let deadline = Date().addingTimeInterval(2)
        while (try? FileReader.readText("/proc/\(child.pid)/comm")) != "sleep\n" && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(try FileReader.readText("/proc/\(child.pid)/comm"), "sleep\n")
        XCTAssertEqual(group.pids, [child.pid])
        XCTAssertEqual(try FileReader.readText("/proc/\(child.pid)/oom_score_adj"), "1000\n")
        XCTAssertNotEqual(try FileReader.readText("/proc/self/oom_score_adj"), "1000\n", "the harness keeps its own")
        XCTAssertFalse(try FileReader.readText("/proc/self/cgroup").contains((group.path as NSString).lastPathComponent), "the harness stays out")
        if let twin = group.pressureStallPath {
            XCTAssertEqual(try FileReader.readText(twin + "/cgroup.procs"), "\(child.pid)\n")
        }
    }
}

final class PressureForwardingTests: XCTestCase {
    func testKernelEventsStayOnTheTimelineWithoutBecomingWarningsWhenForwardingIsOff() throws {
        let scenario = Scenario(name: "quiet", summary: "test", steps: [.launch, .input(kind: "fill"), .pressure(limitBytes: 16 << 20),
                                                                        .wait(seconds: 0.3), .terminate])
        let record = try ScenarioRunnerTests.runner { $0.forwardKernelPressure = false }
            .run(RunPlan(target: .builtIn(name: "fixture.purgeable"), scenario: scenario, repetition: 1))
        try MemoryPressureTests.requireCgroup(record)
        XCTAssertFalse(record.memory?.pressureEvents.isEmpty ?? true, "the kernel reclaimed and said so")
        XCTAssertEqual(record.memory?.deliveries.count, 0, "nothing was forwarded to the app")
    }
}
