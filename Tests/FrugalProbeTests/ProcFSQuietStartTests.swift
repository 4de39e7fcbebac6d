import XCTest
@testable import FrugalProbe
@testable import FrugalCore

/// In a program's first 100 ms the harness reads nothing that takes its address space's lock:
/// a sample's memory by kind then comes from `status`'s counters, not `smaps_rollup`.
final class ProcFSQuietStartTests: XCTestCase {
    func testStatusCountersGiveTheSplitWithoutSmaps() throws {
        let status = ProcFS.parseStatus("Name:\tx\nVmRSS:\t  3000 kB\nRssAnon:\t  2000 kB\nRssFile:\t   900 kB\nRssShmem:\t   100 kB\n")
        XCTAssertEqual(status.residentAnonymousBytes, 2000 * 1024)
        XCTAssertEqual(status.residentFileBytes, 900 * 1024)
        XCTAssertEqual(status.residentSharedBytes, 100 * 1024)
    }

    func testAQuietSampleOfThisProcessAgreesWithItsSmapsRollup() throws {
        // 32 MiB of anonymous memory touched, so both readings are well above their noise.
        let size = 32 << 20
        let block = try XCTUnwrap(malloc(size))
        defer { free(block) }
        memset(block, 1, size)
        let quiet = try XCTUnwrap(try ProcFS.sample(pid: getpid(), time: 0, memoryBreakdown: false).memory)
        let full = try XCTUnwrap(try ProcFS.sample(pid: getpid(), time: 0).memory)
        XCTAssertGreaterThanOrEqual(quiet.anonymousBytes, size)
        // The counters are per-CPU batched (up to 64 pages a CPU); other threads of the test may allocate between the reads.
        XCTAssertEqual(Double(quiet.anonymousBytes), Double(full.anonymousBytes), accuracy: 0.1 * Double(full.anonymousBytes))
        XCTAssertEqual(quiet.lazyFreeBytes, 0)
    }
}
