import Foundation
import XCTest
@testable import FrugalHarness
import FrugalProbe
import FrugalCore
import CFrugalSystem

/// The shortcuts that keep the outside watch light beside an idle program (issue 31, "a lighter
/// harness"): each must give the answer the long way would.
final class HarnessLightnessTests: XCTestCase {
    func testTheMapsByteSearchFindsLibdispatchWhereverItIs() {
        XCTAssertTrue(MainQueueProbe.mentionsDispatch("7f00-7f10 r-xp 00000000 08:01 42 /usr/lib/swift/linux/libdispatch.so\n"))
        XCTAssertTrue(MainQueueProbe.mentionsDispatch("libdispatch.so"))
        XCTAssertFalse(MainQueueProbe.mentionsDispatch("7f00-7f10 r-xp 00000000 08:01 42 /usr/lib/libdispatch.s\n"))
        XCTAssertFalse(MainQueueProbe.mentionsDispatch(""))
        let ownMaps = (try? FileReader.readText("/proc/self/maps")) ?? ""
        XCTAssertEqual(MainQueueProbe.mentionsDispatch(ownMaps), ownMaps.contains("libdispatch.so"))
    }

    /// The gate on the main-queue probe's looks: mapping a file changes the address space's size.
    func testMappingAFileChangesTheAddressSpaceSize() throws {
        let before = try XCTUnwrap(ProcFS.addressSpacePages(pid: getpid()))
        let fd = open("/proc/self/exe", O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let length = 1 << 20
        let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0)
        XCTAssertNotEqual(mapped, MAP_FAILED)
        defer { munmap(mapped, length) }
        let after = try XCTUnwrap(ProcFS.addressSpacePages(pid: getpid()))
        // Other test threads may map or unmap at the same time; what matters is that it moves.
        XCTAssertNotEqual(before, after, "a 1 MiB mapping shows in statm")
    }

    /// Starts a thread that runs `body`; returns its tid once it has started.
    static func startThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
        let started = DispatchSemaphore(value: 0)
        let tidBox = NSLock()
        nonisolated(unsafe) var tid: Int32 = 0
        Thread {
            tidBox.withLock { tid = Int32(frugal_gettid()) }
            started.signal()
            body()
        }.start()
        started.wait()
        return tidBox.withLock { tid }
    }

    /// The kept-open reader reads what opening the files each time reads, again and again, and
    /// nothing once its thread has left.
    func testTheKeptOpenReaderAgreesWithWaitStateAndSeesTheThreadLeave() throws {
        let finish = DispatchSemaphore(value: 0)
        let watched = Self.startThread { finish.wait() }
        let reader = try XCTUnwrap(ThreadWaitReader(pid: getpid(), tid: watched))
        // Until it sleeps on the semaphore: a fresh thread may still be on its way there, and a
        // read while it runs cannot agree with the next (in CI at load 2.5, "R" against "S").
        let asleepBy = Date().addingTimeInterval(5)
        while ProcFS.waitState(pid: getpid(), tid: watched)?.state != "S" && Date() < asleepBy { usleep(10_000) }
        for _ in 0..<3 {
            let kept = try XCTUnwrap(reader.read()), opened = try XCTUnwrap(ProcFS.waitState(pid: getpid(), tid: watched))
            XCTAssertEqual(kept.state, opened.state)
            XCTAssertEqual(kept.voluntaryContextSwitches, opened.voluntaryContextSwitches, "the thread sleeps on a semaphore")
            XCTAssertEqual(kept.syscall, opened.syscall)
            XCTAssertEqual(kept.onCPUNanoseconds, opened.onCPUNanoseconds)
        }
        finish.signal()
        let deadline = Date().addingTimeInterval(5)
        while ProcFS.waitState(pid: getpid(), tid: watched) != nil && Date() < deadline { usleep(10_000) }
        XCTAssertNil(reader.read(), "a thread that left reads as gone")
    }

    /// A sleeping thread's `wchan` and `syscall` are reused while it has not run; once it wakes
    /// and sleeps in another call, the next read names the new one (never the stale wait).
    func testTheReaderSeesASleepingThreadMoveToAnotherWait() throws {
        let move = DispatchSemaphore(value: 0)
        let watched = Self.startThread {
            move.wait()                 // futex
            var pause = timespec(tv_sec: 3, tv_nsec: 0)
            nanosleep(&pause, nil)      // nanosleep (or clock_nanosleep)
        }
        let reader = try XCTUnwrap(ThreadWaitReader(pid: getpid(), tid: watched))
        // Until it sleeps on the semaphore (a fresh thread may still be on its way there).
        var first = try XCTUnwrap(reader.read())
        let deadline = Date().addingTimeInterval(5)
        while (first.state != "S" || first.syscall != ProcFS.waitState(pid: getpid(), tid: watched)?.syscall) && Date() < deadline {
            usleep(10_000)
            first = try XCTUnwrap(reader.read())
        }
        let again = try XCTUnwrap(reader.read())
        XCTAssertEqual(again, first, "a thread that has not run reads the same, wait and all")
        move.signal()
        var moved = try XCTUnwrap(reader.read())
        // Until it sleeps in the new call (on its way there it runs: `syscall` reads "running").
        while (moved.state != "S" || moved.syscall == first.syscall) && Date() < deadline {
            usleep(10_000)
            moved = try XCTUnwrap(reader.read())
        }
        let opened = try XCTUnwrap(ProcFS.waitState(pid: getpid(), tid: watched))
        XCTAssertNotEqual(moved.syscall, first.syscall, "the new wait is read, not the reused one")
        XCTAssertEqual(moved.syscall, opened.syscall)
        XCTAssertGreaterThan(moved.voluntaryContextSwitches, first.voluntaryContextSwitches)
    }

    /// The reuse rule itself: only asleep, in the same state, with nothing run or switched between.
    func testASameWaitNeedsNoRunAndNoSwitch() {
        let asleep = ThreadWaitState(state: "S", wchan: "futex_do_wait", syscall: "202", voluntaryContextSwitches: 4,
                                     involuntaryContextSwitches: 1, onCPUNanoseconds: 1_000)
        var now = asleep
        now.wchan = nil
        now.syscall = nil
        XCTAssertTrue(ThreadWaitReader.sameWait(asleep, now))
        var ran = now
        ran.onCPUNanoseconds += 1
        XCTAssertFalse(ThreadWaitReader.sameWait(asleep, ran), "any on-CPU time means it ran")
        var switched = now
        switched.voluntaryContextSwitches += 1
        XCTAssertFalse(ThreadWaitReader.sameWait(asleep, switched), "a new sleep is a new wait")
        var running = now
        running.state = "R"
        XCTAssertFalse(ThreadWaitReader.sameWait(asleep, running))
        var noSchedstat = now
        noSchedstat.onCPUNanoseconds = 0
        XCTAssertFalse(ThreadWaitReader.sameWait(ThreadWaitState(state: "S", wchan: nil, syscall: nil, voluntaryContextSwitches: 4,
                                                                 involuntaryContextSwitches: 1, onCPUNanoseconds: 0), noSchedstat),
                       "without schedstat a run cannot be ruled out")
    }

    /// Beside a sleeping thread the watch slows only once one wait has lasted: 4 intervals for the
    /// first second (a 300 ms poll is measured as before), then a tenth of the wait so far, never
    /// slower than the 0.2 s at which it looks for the program's process again.
    func testTheWatchSlowsOnlyInALongWait() {
        let interval = OutsideWatchLog.interval
        XCTAssertEqual(OutsideHangWatcher.idleWait(interval: interval, asleepNanoseconds: 0), interval * 4, accuracy: 1e-9)
        XCTAssertEqual(OutsideHangWatcher.idleWait(interval: interval, asleepNanoseconds: 300_000_000), interval * 4, accuracy: 1e-9)
        XCTAssertEqual(OutsideHangWatcher.idleWait(interval: interval, asleepNanoseconds: 1_500_000_000), 0.15, accuracy: 1e-9)
        XCTAssertEqual(OutsideHangWatcher.idleWait(interval: interval, asleepNanoseconds: 60_000_000_000), 0.2, accuracy: 1e-9)
        XCTAssertEqual(OutsideHangWatcher.idleWait(interval: 0.1, asleepNanoseconds: 60_000_000_000), 0.4, accuracy: 1e-9,
                       "a watch slower than the cap keeps its own 4 intervals")
    }
}
