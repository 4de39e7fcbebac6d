import Foundation
import XCTest
@testable import FrugalProbe
import FrugalCore

/// `smaps_rollup` read from outside sees anonymous pages, and MADV_FREE moving them to LazyFree.
final class ProcFSMemoryTests: XCTestCase {
    func testSmapsRollupSeesAnonymousPagesAndThenLazyFreeOnes() throws {
        let length = 16 << 20
        let before = try XCTUnwrap(ProcFS.memory(pid: getpid()), "smaps_rollup is readable")
        let region = try VirtualMemory.mapAnonymous(length)
        defer { VirtualMemory.unmap(region, length: length) }
        memset(region, 1, length)
        let touched = try XCTUnwrap(ProcFS.memory(pid: getpid()))
        // Other test threads allocate too: a margin of 4 MiB either way.
        XCTAssertGreaterThan(touched.anonymousBytes - before.anonymousBytes, length - (4 << 20))
        try VirtualMemory.advise(region, length: length, .free)
        let freed = try XCTUnwrap(ProcFS.memory(pid: getpid()))
        XCTAssertGreaterThan(freed.lazyFreeBytes - before.lazyFreeBytes, length - (1 << 20), "MADV_FREE pages show as LazyFree (the allocator frees lazily too)")
        XCTAssertLessThan(freed.anonymousBytes, touched.anonymousBytes - (length - (4 << 20)), "and no longer as held anonymous")
        let sample = try ProcFS.sample(pid: getpid(), time: 0)
        XCTAssertNotNil(sample.memory)
    }
}
