import Foundation
import Synchronization
import XCTest
@testable import FrugalKit
import FrugalCore
import FrugalProbe

/// FrugalKit's memory tools against the real kernel (mmap, madvise, mincore), in this process.
final class MemoryToolsTests: XCTestCase {
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-kit-memory-\(getpid())-\(UUID().uuidString.prefix(6))")
        for directory in SandboxLayout.all {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        sandbox = Sandbox(root: root)
        let resource = BundleResource(path: "atlas.bin", bytes: 4 << 20, content: .pattern, seed: 3)
        let url = sandbox.bundle.appendingPathComponent("atlas.bin")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data(resource.contents(offset: 0, count: resource.bytes))))
        // Clean pages, as the harness leaves an installed bundle: only those can be dropped.
        let handle = try FileHandle(forWritingTo: url)
        try handle.synchronize()
        try handle.close()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: sandbox.root)
    }

    func testPurgeableBufferKeepsItsContentWhenNotReclaimed() throws {
        let buffer = try PurgeableBuffer(count: 3 * VirtualMemory.pageSize + 10)
        XCTAssertTrue(buffer.isAccessed, "a new buffer is pinned, like NSPurgeableData")
        for index in stride(from: 0, to: buffer.count, by: 997) { buffer.bytes[index] = UInt8(truncatingIfNeeded: index | 1) }
        buffer.endAccess()
        XCTAssertTrue(buffer.beginAccess(), "nothing reclaimed the pages: the cookies read back")
        for index in stride(from: 0, to: buffer.count, by: 997) {
            XCTAssertEqual(buffer.bytes[index], UInt8(truncatingIfNeeded: index | 1), "the word under each cookie is restored (byte \(index))")
        }
        buffer.endAccess()
    }

    func testPurgeableBufferReportsDiscardedPagesAfterTheyAreThrownAway() throws {
        let buffer = try PurgeableBuffer(count: 8 * VirtualMemory.pageSize)
        buffer.bytes.initializeMemory(as: UInt8.self, repeating: 0x7f)
        buffer.endAccess()
        // MADV_DONTNEED zero-fills at once: what the kernel's reclaim of MADV_FREE pages does later.
        buffer.discardContentIfPossible()
        XCTAssertFalse(buffer.beginAccess(), "the cookies are gone")
        XCTAssertTrue(buffer.isContentDiscarded)
        XCTAssertEqual(buffer.discardedPages, 8)
        XCTAssertTrue(buffer.bytes.allSatisfy { $0 == 0 }, "discarded content reads as zero")
        buffer.endAccess()
    }

    func testCacheEvictsPastItsLimitsAndOnAWarningUnlessOptedOut() {
        let cache = Cache<Int, [UInt8]>(name: "t", countLimit: 3)
        for key in 0..<5 { cache.setObject([UInt8(key)], forKey: key, cost: 10) }
        XCTAssertEqual(cache.count, 3)
        XCTAssertNil(cache.object(forKey: 0), "the least recently used went first")
        XCTAssertNotNil(cache.object(forKey: 4))
        let costly = Cache<Int, [UInt8]>(name: "c", totalCostLimit: 25)
        for key in 0..<3 { costly.setObject([], forKey: key, cost: 10) }
        XCTAssertEqual(costly.totalCost, 20)
        let hoard = Cache<Int, [UInt8]>(name: "h", evictsOnMemoryWarning: false)
        hoard.setObject([1], forKey: 1, cost: 100)
        XCTAssertEqual(MemoryTools.ledger.optedOutCacheBytes, 100)
        NotificationCenter.default.post(name: .frugalMemoryWarning, object: nil, userInfo: [Application.memoryWarningLevelKey: MemoryWarningLevel.warning])
        XCTAssertEqual(cache.count, 0, "evicted on the warning")
        XCTAssertEqual(hoard.count, 1, "opted out")
    }

    func testCacheDropsPurgeableEntriesWhoseContentWasDiscarded() throws {
        let cache = Cache<String, PurgeableBuffer>(name: "p")
        let buffer = try PurgeableBuffer(count: VirtualMemory.pageSize)
        buffer.endAccess()
        cache.setObject(buffer, forKey: "a", cost: VirtualMemory.pageSize)
        let pinned = try XCTUnwrap(cache.object(forKey: "a"), "intact content comes back pinned")
        pinned.endContentAccess()
        buffer.discardContentIfPossible()
        XCTAssertNil(cache.object(forKey: "a"))
        XCTAssertEqual(cache.count, 0)
    }

    func testMappedResourceTouchesOnlyWhatItReadsAndPaysMajorFaultsAfterDroppingPages() throws {
        let atlas = try MappedResource(named: "atlas.bin", in: sandbox, randomAccess: true)
        XCTAssertEqual(atlas.count, 4 << 20)
        let region = (1 << 20)..<(2 << 20)
        let first = atlas.touch(region)
        XCTAssertEqual(first.pages, 256)
        atlas.dropPages()
        let resident = try XCTUnwrap(atlas.residentPages)
        XCTAssertLessThan(resident, 256, "posix_fadvise(DONTNEED) dropped the page cache of the region")
        let again = atlas.touch(region)
        XCTAssertLessThan(again.residentPagesBefore, 256)
        // MADV_RANDOM: no readahead, so each dropped page is one major fault.
        XCTAssertGreaterThan(try XCTUnwrap(again.majorFaults), 0, "re-touching dropped pages reads them from storage")
    }

    func testMappedResourceIsTouchedFromOtherThreadsEachCountingItsOwnFaults() throws {
        // An app keeps storage reads off its main thread by touching on a queue of its own.
        let atlas = try MappedResource(named: "atlas.bin", in: sandbox, randomAccess: true)
        let region = (2 << 20)..<(3 << 20)
        let expected = atlas.touch(region).checksum
        atlas.dropPages()
        let touches = Mutex<[MappedResource.Touch]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let touch = atlas.touch(region)
            touches.withLock { $0.append(touch) }
        }
        let all = touches.withLock { $0 }
        XCTAssertEqual(all.map(\.checksum), Array(repeating: expected, count: 4), "every thread read the same bytes")
        XCTAssertGreaterThan(all.compactMap(\.majorFaults).reduce(0, +), 0,
                             "the threads that read the dropped pages from storage counted the faults as their own")
    }

    func testResourceLoadReadsTheWholeFileAndCountsItAsHeld() throws {
        let before = MemoryTools.ledger.loadedResourceBytes
        var loaded: LoadedResource? = try Resource.load("atlas.bin", in: sandbox)
        XCTAssertEqual(loaded?.count, 4 << 20)
        XCTAssertEqual(MemoryTools.ledger.loadedResourceBytes - before, 4 << 20)
        XCTAssertEqual(loaded?.withBytes { $0[100] }, BundleResource(path: "", bytes: 4 << 20, content: .pattern, seed: 3).contents(offset: 100, count: 1).first)
        loaded = nil
        XCTAssertEqual(MemoryTools.ledger.loadedResourceBytes, before)
    }
}
