import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe
import FrugalTestSupport

/// Black-box programs' main threads, seen from outside: their wakeups past a wrapper, their
/// hangs and waits, their syncs, and the short program's own wall time and wakeups (perf stat
/// as the reference).
extension BlackBoxRunTests {
    /// `mainThread.wakeups` is the program's own main thread, past a shell wrapper, and counts to
    /// the exit; `cpu.wakeups` counts every process. 100 wakeups in 0.5 s, so the test is short.
    func testMainThreadWakeupsAreTheProgramsOwnToTheEndUnderAWrapper() throws {
        try Self.requireContainment()
        let host = try Self.host()
        for arguments in [[host, "--wake", "200", "0.5"], ["sh", "-c", "\(host) --wake 200 0.5; true"]] {
            let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(arguments), scenario: Self.toItsEnd, repetition: 1).demanding(.light))
            XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
            let report = ReportBuilder.runReport(record)
            let main = try XCTUnwrap(report.metrics[MetricName.mainThreadWakeups]?.value, "\(report.metrics[MetricName.mainThreadWakeups]!)")
            // 100 sleeps, plus the exec and the Swift runtime's start: 1–3 more on a quiet machine.
            // A loaded one adds a few: a start that waits for a page of the binary or a lock held
            // by another thread is a voluntary switch too (112 seen at load average 6). The upper
            // bound need not be tight to show that the count is the program's (a wrapper's main
            // thread has 1–4) and complete (the last periodic sample missed up to a tenth of them).
            XCTAssertGreaterThanOrEqual(main, 100, "\(arguments)")
            XCTAssertLessThanOrEqual(main, 125, "\(arguments)")
            let all = try XCTUnwrap(report.metrics[MetricName.cpuWakeups]?.value)
            XCTAssertGreaterThanOrEqual(all, main)
            if arguments[0] == "sh" {
                XCTAssertEqual(report.processes?.wrapperChain?.first, "sh", "the wrapper is named: \(String(describing: report.processes))")
            }
        }
    }

    /// A spin of the main thread after a sleep is a hang of its length, whether it ends before the
    /// exit or at it; a 100 ms spin is not a hang. The spin burns its seconds of the thread's own
    /// CPU time and the watch measures schedstat's on-CPU time, so a loaded machine stretches the
    /// wall time, not the measure; the bound for a spin that ends at the exit is looser (the last
    /// sample to the exit is taken as on the CPU: up to one 25 ms interval, more when preempted).
    func testHangsAreSeenFromOutsideWhetherTheyEndBeforeTheExitOrAtIt() throws {
        try Self.requireContainment()
        let host = try Self.host()
        for (arguments, expected, tolerance) in [(["spin", "0.2", "0.4", "0.3"], 400.0, 30.0), (["spin", "0.2", "0.4", "0"], 400, 60),
                                                 (["spin", "0.2", "0.1", "0.2"], 0, 0)] {
            let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command([host, "--block"] + arguments), scenario: Self.toItsEnd, repetition: 1))
            XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
            let metrics = ReportBuilder.runReport(record).metrics
            let hangs = try XCTUnwrap(metrics[MetricName.mainThreadHangs]?.value, "\(arguments)")
            let longest = try XCTUnwrap(metrics[MetricName.mainThreadLongestBlockMs]?.value, "\(arguments)")
            if expected > 0 {
                XCTAssertEqual(hangs, 1, "\(arguments): \(String(describing: record.outsideWatch))")
                XCTAssertEqual(longest, expected, accuracy: tolerance, "\(arguments)")
            } else {
                XCTAssertEqual(hangs, 0, "\(arguments): \(String(describing: record.outsideWatch))")
                XCTAssertEqual(longest, 100, accuracy: 30, "the spin is still the longest busy stretch: \(arguments)")
            }
        }
        // A 300 ms poll is no hang (from outside, a wait cannot be told from idling) but is
        // reported as the main thread's longest off-CPU wait, with the call it waited in.
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command([host, "--block", "poll", "0.1", "0.3", "0.1"]),
                                                                  scenario: Self.toItsEnd, repetition: 1))
        let metrics = ReportBuilder.runReport(record).metrics
        XCTAssertEqual(metrics[MetricName.mainThreadHangs]?.value, 0)
        XCTAssertEqual(try XCTUnwrap(metrics[MetricName.mainThreadLongestWaitMs]?.value), 300, accuracy: 30)
        #if arch(x86_64)
        XCTAssertEqual(record.outsideWatch?.longestWait?.syscall, "7", "poll: \(String(describing: record.outsideWatch?.longestWait))")
        #endif
    }

    /// A program's syncs from the kernel's syscall tracepoints (issue 31: they were always
    /// unavailable): 7 fsyncs and 3 fdatasyncs under a shell wrapper, counted exactly. Skips, with
    /// the reason, where tracepoints cannot be counted (no root, no tracefs).
    func testAProgramsSyncsAreCountedByTheKernel() throws {
        try Self.requireContainment()
        let host = try Self.host()
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["sh", "-c", "\(host) --sync 7 3; true"]),
                                                                  scenario: Self.toItsEnd, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let syncs = try XCTUnwrap(record.syncCalls)
        if let reason = syncs.unavailable { throw XCTSkip("sync calls cannot be counted here: \(reason)") }
        XCTAssertEqual(syncs.fsync, 7)
        XCTAssertEqual(syncs.fdatasync, 3)
        let metric = try XCTUnwrap(ReportBuilder.runReport(record).metrics[MetricName.diskFsyncs])
        XCTAssertEqual(metric.value, 10)
        XCTAssertEqual(metric.source, MetricExtraction.Source.syncTracepoints)
    }

    /// Against `perf stat -e context-switches` on the same execution: perf runs as the black-box
    /// command (a wrapper, waiting for its one child) and counts the program; Frugal reports the
    /// program's main thread past perf. perf counts every switch (voluntary and involuntary) from
    /// the exec on; the kernel's exit record splits them, so their sum is compared. The bound, 1%
    /// or 3 switches, is the 1% plus what perf cannot see and Frugal does: the switches of
    /// perf's forked child before its exec (it waits on a pipe for perf's go). Skips without perf.
    func testProgramWakeupsAgreeWithPerfStat() throws {
        try Self.requireContainment()
        let host = try Self.host()
        guard let perf = ScenarioRunner.which("perf") else { throw XCTSkip("perf is not installed (Debian: linux-perf)") }
        let paranoid = (try? FileReader.readText("/proc/sys/kernel/perf_event_paranoid")).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 2
        if geteuid() != 0 && paranoid > 1 { throw XCTSkip("perf_event_paranoid \(paranoid) without root: perf counts no kernel context switches") }
        try assertShortProgramWakeupsEqualPerfStat(perf: perf)
        for (rate, seconds) in [("200", "0.5"), ("1000", "1")] {
            let (record, counted, tree) = try runUnderPerfStat(perf, [host, "--wake", rate, seconds], name: rate)
            let program = try XCTUnwrap(tree.programChain.last)
            XCTAssertGreaterThan(tree.programChain.count, 1, "perf is seen as a wrapper")
            let threads = tree.threadsByProcess[program] ?? []
            let total = Double(threads.reduce(0) { $0 + $1.voluntarySwitches + $1.involuntarySwitches })
            // Before its exec perf's child can also be preempted, which perf does not count either:
            // on a loaded machine (CI's lanes side by side) Frugal read 108 where perf read 104. So
            // the bound also allows the program's involuntary switches, which are few when quiet.
            let involuntary = Double(threads.reduce(0) { $0 + $1.involuntarySwitches })
            XCTAssertLessThanOrEqual(abs(total - counted), max(3, 0.01 * counted) + involuntary,
                                     "rate \(rate)/s for \(seconds) s: Frugal \(total) (\(involuntary) involuntary), perf \(counted)")
            let report = ReportBuilder.runReport(record)
            let main = try XCTUnwrap(report.metrics[MetricName.mainThreadWakeups]?.value)
            // perf is the reference: the program's main thread has no more switches than perf counted
            // for the whole program (plus the 3 before its exec). The sleeps are a floor only within a
            // margin: on a loaded machine a short nanosleep whose timer expired before the thread left
            // the CPU returns without a switch (999 of 1,000 seen beside the other test lane).
            let expected = (Double(rate)! * Double(seconds)!).rounded()
            XCTAssertLessThanOrEqual(main, counted + 3, "only the program's: Frugal \(main), perf \(counted)")
            XCTAssertGreaterThanOrEqual(main, 0.98 * expected, "the sleeps were counted: \(main) of \(expected)")
        }
    }

    /// Runs `command` as a black box under `perf stat -e context-switches` (perf the wrapper, the
    /// command its one child) to its end: the record, perf's count for the program (the reference)
    /// and the run's process tree from the kernel's exit records.
    func runUnderPerfStat(_ perf: String, _ command: [String], name: String) throws -> (RunRecord, Double, ProcessTree) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-perf-\(getpid())-\(name).csv").path
        defer { unlink(output) }
        let arguments = [perf, "stat", "-x", ",", "-o", output, "-e", "context-switches", "--"] + command
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(arguments), scenario: Self.toItsEnd, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("context-switches") }, text)
        let counted = try XCTUnwrap(Double(line.split(separator: ",")[0]), String(line))
        let exits = try XCTUnwrap(record.containment?.taskExits)
        let tree = ProcessTree(root: try XCTUnwrap(record.processes?.first?.pid), exits: exits)
        return (record, counted, tree)
    }

    /// `perf stat` around a ~3 ms program (`sleep 0.003`), 3 times: perf (tens of ms of its own)
    /// is seen as a wrapper however short the program, and the program's main-thread wakeups
    /// (voluntary switches, from the kernel's exit record) equal perf's count on the same
    /// execution, within what perf by design does not count: its forked child's wait on perf's
    /// pipe before the exec (one voluntary switch, when perf had not yet written), while perf's
    /// count has the involuntary switches after the exec too (preemptions on a loaded machine).
    func assertShortProgramWakeupsEqualPerfStat(perf: String) throws {
        for attempt in 0..<3 {
            let (record, perfCount, tree) = try runUnderPerfStat(perf, ["/bin/sleep", "0.003"], name: "short\(attempt)")
            let counted = Int(perfCount)
            let exits = try XCTUnwrap(record.containment?.taskExits)
            XCTAssertEqual(tree.programChain.count, 2, "perf is seen as a wrapper of a 3 ms program: \(exits.filter(\.isMainThread).map { "\($0.command) \(($0.endTime - $0.startTime) / 1_000_000) ms \($0.voluntarySwitches) switches" })")
            let program = try XCTUnwrap(tree.mainThread(of: try XCTUnwrap(tree.programChain.last)))
            let wakeups = program.voluntarySwitches
            XCTAssertTrue(((wakeups - 1)...(wakeups + program.involuntarySwitches)).contains(counted),
                          "Frugal \(wakeups) voluntary, \(program.involuntarySwitches) involuntary; perf \(counted)")
            let main = try XCTUnwrap(ReportBuilder.runReport(record).metrics[MetricName.mainThreadWakeups]?.value)
            XCTAssertEqual(main, Double(program.voluntarySwitches), "the metric is the program's main thread")
        }
    }

    /// No stub runs in the measured process: the program is born in the run's cgroup (clone3
    /// `CLONE_INTO_CGROUP`), so a ~3 ms program's `run.wallSeconds` is its own wall time: compared
    /// with the same command started by `posix_spawn` and waited for here, the fastest of 5 each
    /// (both ends are a blocked thread's wakeup, which a loaded machine delays by tens of ms in
    /// any one run: the fastest is the one the scheduler did not delay). The old `/bin/sh` stub
    /// added 11–16 ms. And its main thread's wakeups are its own, which a stub's start added to.
    func testAShortProgramsWallTimeAndWakeupsAreItsOwn() throws {
        try Self.requireContainment()
        let command = ["/bin/sleep", "0.003"]
        let spawned = DirectSpawn.wallSeconds(of: command, times: 5)
        XCTAssertFalse(spawned.contains(nil), "posix_spawn of \(command[0]) failed")
        let direct = spawned.compactMap { $0 }
        var measured: [Double] = []
        // The kernel's own measure of each run's program, from its birth to its exit (taskstats).
        var lifetimes: [Double] = []
        for _ in 0..<5 {
            let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(command), scenario: Self.toItsEnd, repetition: 1).demanding(.light))
            XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
            let facts = try XCTUnwrap(record.containment)
            if facts.kind == "cgroup-v2" {
                XCTAssertEqual(facts.spawn, SpawnPath.bornInCgroup, "born in the run's v2 group")
            } else {
                XCTAssertEqual(facts.spawn, SpawnPath.childJoined, "the child joined its \(facts.kind) group itself")
            }
            let report = ReportBuilder.runReport(record)
            XCTAssertEqual(report.processes?.spawn, facts.spawn)
            measured.append(try XCTUnwrap(report.metrics[MetricName.runWallSeconds]?.value))
            if let exit = facts.taskExits?.first(where: { $0.tid == record.processes?.first?.pid }) {
                lifetimes.append(Double(exit.endTime - exit.startTime) / 1e9)
            }
            // `sleep` sleeps once: its main thread's wakeups are that sleep and its exit, not a stub's
            // and not the held child's setup before its exec (which slept on locks beside CPU hogs:
            // 10 were once read), which the child counted itself as its last call before execve.
            let main = try XCTUnwrap(report.metrics[MetricName.mainThreadWakeups]?.value)
            let setup = try XCTUnwrap(record.processes?.first?.voluntarySwitchesBeforeExec, "the held child reported its count")
            let atExit = try XCTUnwrap(facts.taskExits?.first { $0.tid == record.processes?.first?.pid }).voluntarySwitches
            XCTAssertEqual(main, Double(atExit - setup), "the kernel's count at exit less the setup's")
            XCTAssertLessThanOrEqual(main, 3, "the program's own wakeups only: \(atExit) at exit, \(setup) before the exec")
        }
        // The wall time is checked on `frugal run` itself (ProgramWallTimeCLITests), not here: this
        // test process has run hundreds of scenarios by the time scripts/test.sh reaches it, and the
        // held child is a copy-on-write copy of it (clone3 without CLONE_VM), whose address space
        // the exec tears down on the program's clock. Alone it reads 4–5 ms here; late in the
        // suite's main lane 10–16 ms in every one of 5 runs, while posix_spawn (vfork) from the
        // same process stayed at 4.4 ms (2026-11-26). A spawn sharing the harness's memory until
        // the exec (CLONE_VM, as posix_spawn) would remove that cost; until then it is the
        // harness's, in proportion to its size.
        XCTAssertEqual(measured.count, 5, "Frugal \(measured), posix_spawn \(direct), the kernel's \(lifetimes)")
    }

    /// `FRUGAL_SPAWN=shell` keeps the old path to compare with: a `/bin/sh` stub joins the groups
    /// and execs the program, and the run says so; its start is in the program's main thread.
    func testTheShellStubIsKeptOnRequestAndNamed() throws {
        try Self.requireContainment()
        setenv(SpawnPath.variable, SpawnPath.shellValue, 1)
        defer { unsetenv(SpawnPath.variable) }
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["/bin/sleep", "0.003"]), scenario: Self.toItsEnd, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertEqual(record.containment?.spawn, SpawnPath.shellStub)
    }

    /// A shell that forks a ~3 ms program and waits is a wrapper however short the program: the
    /// main thread reported is the program's (its exit record), not the shell's.
    func testAShellAroundAShortProgramIsSeenAsAWrapper() throws {
        try Self.requireContainment()
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["sh", "-c", "/bin/sleep 0.003; exit 0"]),
                                                                  scenario: Self.toItsEnd, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let exits = try XCTUnwrap(record.containment?.taskExits)
        let tree = ProcessTree(root: try XCTUnwrap(record.processes?.first?.pid), exits: exits)
        XCTAssertEqual(tree.programChain.count, 2, "sh, then sleep: \(exits.map(\.command))")
        let program = try XCTUnwrap(tree.mainThread(of: try XCTUnwrap(tree.programChain.last)))
        XCTAssertEqual(program.command, "sleep")
        let report = ReportBuilder.runReport(record)
        XCTAssertEqual(report.metrics[MetricName.mainThreadWakeups]?.value, Double(program.voluntarySwitches))
        XCTAssertEqual(report.processes?.wrapperChain?.first, "sh")
    }
}
