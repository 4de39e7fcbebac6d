import XCTest
@testable import FrugalCore

/// The block diff, on hand-made contents; each expected number is worked out in a comment.
final class BlockDiffTests: XCTestCase {
    let old = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    func changed(_ positions: [Int], in bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        for position in positions { copy[position] ^= 0xff }
        return copy
    }

    func testIdenticalContentChangesNothing() {
        XCTAssertEqual(BlockDiff.compare(old: old, new: old),
                       BlockDiff(blockSize: 4096, changedBlocks: 0, changedBlockBytes: 0, differingBytes: 0))
    }

    func testOneByteChangesItsWholeBlock() {
        // Byte 5000 lies in block 1 (4096..<8192): one full block.
        XCTAssertEqual(BlockDiff.compare(old: old, new: changed([5000], in: old)),
                       BlockDiff(blockSize: 4096, changedBlocks: 1, changedBlockBytes: 4096, differingBytes: 1))
        // Byte 9000 lies in the last block (8192..<10000): 1808 bytes long.
        XCTAssertEqual(BlockDiff.compare(old: old, new: changed([9000, 9001, 100], in: old)),
                       BlockDiff(blockSize: 4096, changedBlocks: 2, changedBlockBytes: 4096 + 1808, differingBytes: 3))
    }

    func testGrowingAndShrinking() {
        // New bytes past the old end are changed: 4096 equal bytes then 100 new ones, in block 1.
        let grown = Array(old[0..<4096]) + [UInt8](repeating: 1, count: 100)
        XCTAssertEqual(BlockDiff.compare(old: Array(old[0..<4096]), new: grown),
                       BlockDiff(blockSize: 4096, changedBlocks: 1, changedBlockBytes: 100, differingBytes: 100))
        // A truncation to an equal prefix writes nothing that changed.
        XCTAssertEqual(BlockDiff.compare(old: old, new: Array(old[0..<5000])).changedBlocks, 0)
        // A new file: every block is changed (10000 bytes: 4096 + 4096 + 1808).
        XCTAssertEqual(BlockDiff.compare(old: [], new: old),
                       BlockDiff(blockSize: 4096, changedBlocks: 3, changedBlockBytes: 10_000, differingBytes: 10_000))
    }

    func testBlocksAreAlignedToTheFileNotTheWrite() {
        // 200 bytes written at offset 4000 cover the last 96 bytes of file block 0 and the first
        // 104 of block 1. A difference at write position 0 is in block 0; at 150, in block 1.
        let previous = Array(old[4000..<4200])
        XCTAssertEqual(BlockDiff.compare(old: previous, new: changed([0, 150], in: previous), offset: 4000),
                       BlockDiff(blockSize: 4096, changedBlocks: 2, changedBlockBytes: 200, differingBytes: 2))
        XCTAssertEqual(BlockDiff.compare(old: previous, new: changed([150], in: previous), offset: 4000),
                       BlockDiff(blockSize: 4096, changedBlocks: 1, changedBlockBytes: 104, differingBytes: 1))
        // Past the old end of the file (old shorter than the write): positions 100..<200 are new.
        XCTAssertEqual(BlockDiff.compare(old: Array(previous[0..<100]), new: previous, offset: 4000),
                       BlockDiff(blockSize: 4096, changedBlocks: 1, changedBlockBytes: 104, differingBytes: 100))
    }

    func testSmallBlocks() {
        // 8-byte blocks over 20 bytes: blocks of 8, 8, 4. Bytes 3 and 17 differ: blocks 0 and 2.
        let bytes = [UInt8](repeating: 9, count: 20)
        XCTAssertEqual(BlockDiff.compare(old: bytes, new: changed([3, 17], in: bytes), blockSize: 8),
                       BlockDiff(blockSize: 8, changedBlocks: 2, changedBlockBytes: 12, differingBytes: 2))
    }
}
