import Foundation
import XCTest
@testable import FrugalHarness
import FrugalProbe
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

    /// The kept-open reader reads what opening the files each time reads, again and again, and
    /// nothing once its thread has left.
    func testTheKeptOpenReaderAgreesWithWaitStateAndSeesTheThreadLeave() throws {
        let started = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
        let tidBox = NSLock()
        nonisolated(unsafe) var tid: Int32 = 0
        let thread = Thread {
            tidBox.withLock { tid = Int32(frugal_gettid()) }
            started.signal()
            finish.wait()
        }
        thread.start()
        started.wait()
        let watched = tidBox.withLock { tid }
        let reader = try XCTUnwrap(ThreadWaitReader(pid: getpid(), tid: watched))
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
}
