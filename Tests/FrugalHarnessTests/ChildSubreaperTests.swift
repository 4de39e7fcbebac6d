import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// The harness as the subreaper of what its runs start: a process that left the run's cgroup or
/// process group and cleared its environment is still the run's, by its parent chain, and is
/// recorded and ended (issue 24, round two).
final class ChildSubreaperTests: XCTestCase {
    /// As root a program can leave its cgroup; `env -i` clears what the sandbox scan looked for,
    /// and `setsid` leaves the process group. Before the harness was the subreaper, the orphan
    /// went to init and lived on after the run.
    func testAProcessThatLeftTheCgroupAndClearedItsEnvironmentIsEnded() throws {
        try BlackBoxRunTests.requireContainment()
        guard getuid() == 0 else { throw XCTSkip("leaving a cgroup needs root") }
        let marker = "104.\(getpid() % 1000)"
        defer { Self.killLeftovers("sleep \(marker)") }
        let leave = "for f in /sys/fs/cgroup/unified/cgroup.procs /sys/fs/cgroup/cgroup.procs; do [ -w $f ] && echo $$ > $f 2>/dev/null; done; "
        let script = leave + "(env -i setsid sleep \(marker) &); exit 0"
        // Light: a shell that leaves a sleeper behind, judged on whether the sleeper was ended.
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["sh", "-c", script]),
                                                                  scenario: BlackBoxRunTests.toItsEnd, repetition: 1).demanding(.light))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        XCTAssertFalse(BlackBoxRunTests.processExists(commandLine: "sleep \(marker)"), "the escaped orphan was ended")
        // Recorded by its command line when it was found: `setsid` until it has exec'd `sleep`,
        // which a loaded machine can delay past the main process's end (seen at load 8).
        let recorded = record.containment?.stragglers.map(\.command) ?? []
        XCTAssertEqual(recorded.count, 1, "and recorded: \(recorded)")
        XCTAssertTrue(recorded.allSatisfy { $0.hasSuffix("sleep \(marker)") }, "\(recorded)")
    }

    /// What any user gets: without a cgroup the run is its process group, which `setsid` leaves;
    /// the parent chain still leads to the orphan.
    func testWithoutACgroupAnOrphanThatLeftTheProcessGroupIsEnded() throws {
        setenv(RunCgroup.disableVariable, "off", 1)
        defer { unsetenv(RunCgroup.disableVariable) }
        let marker = "105.\(getpid() % 1000)"
        defer { Self.killLeftovers("sleep \(marker)") }
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["sh", "-c", "(env -i setsid sleep \(marker) &); exit 0"]),
                                                                  scenario: BlackBoxRunTests.toItsEnd, repetition: 1))
        XCTAssertEqual(record.containment?.kind, "process-group")
        XCTAssertFalse(BlackBoxRunTests.processExists(commandLine: "sleep \(marker)"), "the orphan that left the process group was ended")
        // Recorded by its command line when it was found: `setsid` until it has exec'd `sleep`,
        // which a loaded machine can delay past the main process's end (seen at load 8).
        let recorded = record.containment?.stragglers.map(\.command) ?? []
        XCTAssertEqual(recorded.count, 1, "and recorded: \(recorded)")
        XCTAssertTrue(recorded.allSatisfy { $0.hasSuffix("sleep \(marker)") }, "\(recorded)")
    }

    /// Which run an adopted process is from: not one that began after it started; and while
    /// another run that began before it is going on, that run's end takes it, not this one's.
    func testAnAdoptedProcessIsTheRunsThatCouldHaveStartedIt() throws {
        guard ChildSubreaper.enable() == nil else { throw XCTSkip("prctl(PR_SET_CHILD_SUBREAPER) is refused here") }
        let first = RunAdoption()
        let second = RunAdoption()
        let marker = "106.\(getpid() % 1000)"
        defer { Self.killLeftovers("sleep \(marker)") }
        // A shell that starts a sleep and exits: the sleep is this process's adopted child.
        // posix_spawn, not Foundation's Process: that one waits until every holder of a socket
        // it gives the child has closed it, the sleep included.
        try Self.spawnAndWait(["/bin/sh", "-c", "sleep \(marker) & exit 0"])
        var orphan: pid_t?
        XCTAssertTrue(eventually {
            orphan = ChildSubreaper.scan().first { $0.parent == getpid() && ProcFS.commandLine(pid: $0.pid) == "sleep \(marker)" }?.pid
            return orphan != nil
        }, "the sleep was adopted by this process")
        let pid = try XCTUnwrap(orphan)
        func adopted(by run: RunAdoption) -> Bool { ChildSubreaper.adopted(run: run.token, roots: []).contains { $0.pid == pid } }
        // Two clock ticks later: a start time is rounded down to one.
        usleep(UInt32(2 * ChildSubreaper.tick / 1000) + 5_000)
        let later = RunAdoption()
        XCTAssertFalse(adopted(by: later), "it started before the later run began")
        XCTAssertFalse(adopted(by: first), "the second run, going on, could have started it")
        XCTAssertFalse(adopted(by: second), "the first run, going on, could have started it")
        second.end()
        XCTAssertTrue(adopted(by: first), "now only the first run could have")
        XCTAssertEqual(ChildSubreaper.endAdopted(run: first.token, roots: []), [pid])
        XCTAssertTrue(eventually { kill(pid, 0) != 0 && errno == ESRCH }, "killed and reaped, no zombie left")
        first.end()
        later.end()
    }

    /// Runs `arguments` to its exit (posix_spawn, waitpid).
    static func spawnAndWait(_ arguments: [String]) throws {
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
        guard status == 0 else { throw SystemCallError(call: "posix_spawn", subject: arguments[0], errno: status) }
        var exit: Int32 = 0
        _ = try SystemCall.retrying("waitpid") { waitpid(pid, &exit, 0) }
    }

    /// Ends any process with this command line (before the fix the orphan lived on), so the test leaves nothing.
    static func killLeftovers(_ commandLine: String) {
        for name in (try? FileReader.directoryEntries("/proc")) ?? [] {
            if let pid = Int32(name), ProcFS.commandLine(pid: pid) == commandLine { kill(pid, SIGKILL) }
        }
    }
}
