import XCTest
@testable import FrugalCore

/// The program behind wrappers, from the kernel's exit records (times in ms for readability).
final class ProcessTreeTests: XCTestCase {
    func exit(_ pid: Int32, parent: Int32, _ command: String, from start: UInt64, to end: UInt64, wakeups: Int, tid: Int32? = nil) -> TaskExit {
        TaskExit(tid: tid ?? pid, tgid: pid, ppid: parent, command: command, voluntarySwitches: wakeups, involuntarySwitches: 0,
                 cpuSeconds: 0, readBytes: 0, writeBytes: 0, peakResidentBytes: 0, startTime: start * 1_000_000, endTime: end * 1_000_000)
    }

    func testAShellThatWaitsForItsOneChildIsAWrapper() {
        let exits = [exit(10, parent: 1, "sh", from: 0, to: 4010, wakeups: 3),
                     exit(11, parent: 10, "wake", from: 5, to: 4005, wakeups: 200),
                     exit(11, parent: 10, "wake", from: 5, to: 4004, wakeups: 7, tid: 12),
                     exit(99, parent: 1, "unrelated", from: 0, to: 100, wakeups: 50)]
        let tree = ProcessTree(root: 10, exits: exits)
        XCTAssertEqual(tree.programChain, [10, 11])
        XCTAssertEqual(tree.mainThread(of: 11)?.voluntarySwitches, 200)
        XCTAssertEqual(tree.allThreads.count, 3, "an unrelated process is not part of the run")
    }

    func testAProcessWhoseChildOutlivesItIsNotAWrapper() {
        // sh -c "sleep 100 & exit 0": the child is a straggler, the shell is the program.
        let exits = [exit(10, parent: 1, "sh", from: 0, to: 5, wakeups: 1),
                     exit(11, parent: 1, "sleep", from: 2, to: 300, wakeups: 1)]
        let tree = ProcessTree(root: 10, exits: exits, members: [11])
        XCTAssertEqual(tree.programChain, [10])
        XCTAssertEqual(tree.allThreads.count, 2, "the orphan counts, as a member of the run's cgroup")
    }

    func testAProcessWithTwoChildrenOrABriefChildIsTheProgram() {
        let two = [exit(10, parent: 1, "make", from: 0, to: 1000, wakeups: 9),
                   exit(11, parent: 10, "cc", from: 10, to: 400, wakeups: 5),
                   exit(12, parent: 10, "cc", from: 500, to: 900, wakeups: 5)]
        XCTAssertEqual(ProcessTree(root: 10, exits: two).programChain, [10])
        let brief = [exit(10, parent: 1, "server", from: 0, to: 1000, wakeups: 90),
                     exit(11, parent: 10, "date", from: 10, to: 12, wakeups: 1)]
        XCTAssertEqual(ProcessTree(root: 10, exits: brief).programChain, [10], "a short helper does not make its parent a wrapper")
    }

    func testAWrapperAroundAShortProgramIsAWrapperHoweverShortTheProgram() {
        // perf stat around a 3 ms program: 40 ms of perf's own start and report, 2 waits.
        let exits = [exit(10, parent: 1, "perf", from: 0, to: 43, wakeups: 2),
                     exit(11, parent: 10, "sleep", from: 30, to: 33, wakeups: 1)]
        XCTAssertEqual(ProcessTree(root: 10, exits: exits).programChain, [10, 11])
        // A parent that lived longer than a wrapper's start outside its child is the program.
        let busy = [exit(10, parent: 1, "server", from: 0, to: 400, wakeups: 40),
                    exit(11, parent: 10, "date", from: 390, to: 393, wakeups: 1)]
        XCTAssertEqual(ProcessTree(root: 10, exits: busy).programChain, [10])
        // However quiet.
        let long = [exit(10, parent: 1, "sleeper", from: 0, to: 1000, wakeups: 2),
                    exit(11, parent: 10, "date", from: 990, to: 993, wakeups: 1)]
        XCTAssertEqual(ProcessTree(root: 10, exits: long).programChain, [10])
    }

    func testAWrapperKilledJustBeforeItsChildIsStillAWrapper() {
        // SIGTERM to the run: sh dies first, its child a moment later, re-parented to init.
        let exits = [exit(10, parent: 1, "sh", from: 0, to: 4000, wakeups: 3),
                     exit(11, parent: 1, "wake", from: 5, to: 4020, wakeups: 150)]
        let tree = ProcessTree(root: 10, exits: exits, members: [11], parentsSeen: [11: 10])
        XCTAssertEqual(tree.programChain, [10, 11])
        // The same child, ended by the harness as a straggler, is not a wrapper's program.
        XCTAssertEqual(ProcessTree(root: 10, exits: exits, members: [11], stragglers: [11], parentsSeen: [11: 10]).programChain, [10])
    }
}
