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

    /// The chunked comparison against the one-buffer one, with the old content behind a reader
    /// that records what it was asked for.
    func chunked(old: [UInt8], new: [UInt8], offset: Int, chunkBytes: Int, blockSize: Int = 4096) -> (diff: BlockDiff, reads: [Range<Int>]) {
        var reads: [Range<Int>] = []
        let diff = new.withUnsafeBytes { newBytes in
            BlockDiff.compare(new: newBytes, offset: offset, blockSize: blockSize, chunkBytes: chunkBytes) { at, buffer in
                reads.append(at..<(at + buffer.count))
                // `old` holds the file's bytes from `offset` on.
                let available = max(0, min(buffer.count, old.count - (at - offset)))
                if available > 0 { buffer.copyBytes(from: old[(at - offset)..<(at - offset + available)]) }
                return available
            }
        }
        return (diff, reads)
    }

    func testChunkedComparisonEqualsTheWholeOneAndHoldsOneChunk() {
        // 300,000 bytes in 64 KiB chunks, with changes on both sides of every chunk boundary
        // (65,535 | 65,536 ...) and in the short last block; the old content is 1,000 bytes shorter.
        let base = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let new = changed([0, 65_535, 65_536, 131_071, 131_072, 200_000, 299_999], in: base)
        let old = Array(base[0..<299_000])
        let (diff, reads) = chunked(old: old, new: new, offset: 0, chunkBytes: 65_536)
        XCTAssertEqual(diff, BlockDiff.compare(old: old, new: new))
        // Blocks 0, 15, 16, 31, 32 and 48 by their changed bytes; block 72 (294,912..<299,008)
        // because its last 8 bytes lie past the old end, and the short last block (299,008..<300,000:
        // 992 bytes) wholly past it. Differing: the 6 changes and the 1,000 new bytes (299,999 is one).
        XCTAssertEqual(diff, BlockDiff(blockSize: 4096, changedBlocks: 8, changedBlockBytes: 7 * 4096 + 992, differingBytes: 6 + 1000))
        XCTAssertEqual(reads, [0..<65_536, 65_536..<131_072, 131_072..<196_608, 196_608..<262_144, 262_144..<300_000],
                       "never more than one chunk of the old content at a time")
        // Once the old content has ended, nothing more is read.
        let shorter = Array(base[0..<100_000])
        let (shorterDiff, shorterReads) = chunked(old: shorter, new: new, offset: 0, chunkBytes: 65_536)
        XCTAssertEqual(shorterDiff, BlockDiff.compare(old: shorter, new: new))
        XCTAssertEqual(shorterReads, [0..<65_536, 65_536..<131_072])
    }

    func testChunksEndOnFileBlocksWhateverTheWriteOffset() {
        // A write at 4094 spanning 3 chunks of 8 KiB: the first chunk ends at file offset 8192, so
        // the block 4096..<8192 is compared whole, not split between two chunks.
        let base = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let new = changed([1, 2, 4098, 8097, 8098, 19_999], in: base)
        for oldCount in [0, 1_000, 20_000] {
            let old = Array(base[0..<oldCount])
            let (diff, reads) = chunked(old: old, new: new, offset: 4094, chunkBytes: 8192)
            XCTAssertEqual(diff, BlockDiff.compare(old: old, new: new, offset: 4094), "old content of \(oldCount) bytes")
            XCTAssertTrue(reads.dropFirst().allSatisfy { $0.lowerBound % 4096 == 0 }, "\(reads)")
            XCTAssertEqual(reads.first, 4094..<8192)
        }
        XCTAssertEqual(chunked(old: [], new: [], offset: 0, chunkBytes: 8192).diff.changedBlocks, 0)
    }

    func testDiffsOfPartsAdd() {
        let one = BlockDiff(blockSize: 4096, changedBlocks: 1, changedBlockBytes: 4096, differingBytes: 3)
        let two = BlockDiff(blockSize: 4096, changedBlocks: 2, changedBlockBytes: 5000, differingBytes: 7)
        XCTAssertEqual(one + two, BlockDiff(blockSize: 4096, changedBlocks: 3, changedBlockBytes: 9096, differingBytes: 10))
    }
}
