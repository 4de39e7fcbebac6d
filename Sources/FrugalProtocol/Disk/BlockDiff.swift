import Foundation

/// How much of a file's content a write really changed, compared block by block with what was
/// there before. Storage writes whole blocks, so a block with one differing byte is a changed
/// block; a write that only needed its changed blocks has a write amplification of 1.
public struct BlockDiff: Codable, Sendable, Equatable {
    /// The block size compared (4096 bytes: the page and ext4 block size).
    public var blockSize: Int
    /// Blocks of the new content with at least one byte that differs from the old content at the
    /// same position, or that lie past the old content's end.
    public var changedBlocks: Int
    /// The bytes of those blocks (the last block of the content may be short).
    public var changedBlockBytes: Int
    /// Bytes of the new content that differ from the old content at the same position, or lie
    /// past its end.
    public var differingBytes: Int

    public init(blockSize: Int, changedBlocks: Int, changedBlockBytes: Int, differingBytes: Int) {
        self.blockSize = blockSize
        self.changedBlocks = changedBlocks
        self.changedBlockBytes = changedBlockBytes
        self.differingBytes = differingBytes
    }

    /// The default block size.
    public static let defaultBlockSize = 4096

    /// Compares `new` (written at `offset` in the file) with `old`, the file's bytes that were at
    /// `offset..<offset + old.count` before (shorter than `new` where the file ended sooner).
    /// Blocks are aligned to the file, not to the write: a write that starts mid-block shares
    /// that block with the bytes before it.
    public static func compare(old: UnsafeRawBufferPointer, new: UnsafeRawBufferPointer, offset: Int = 0,
                               blockSize: Int = defaultBlockSize) -> BlockDiff {
        precondition(blockSize > 0 && offset >= 0)
        var changedBlocks = 0, changedBlockBytes = 0, differing = 0
        var position = 0
        while position < new.count {
            // The part of the write inside the file block that holds `offset + position`.
            let blockEnd = ((offset + position) / blockSize + 1) * blockSize - offset
            let end = min(new.count, blockEnd)
            var differs = 0
            let common = max(0, min(end, old.count) - position)
            if common > 0 {
                // Word-sized comparison first: most blocks of a rewrite are unchanged.
                if memcmpEqual(old.baseAddress! + position, new.baseAddress! + position, common) == false {
                    for index in position..<(position + common) where old[index] != new[index] { differs += 1 }
                }
            }
            differs += (end - position) - common
            if differs > 0 {
                changedBlocks += 1
                changedBlockBytes += end - position
                differing += differs
            }
            position = end
        }
        return BlockDiff(blockSize: blockSize, changedBlocks: changedBlocks, changedBlockBytes: changedBlockBytes,
                         differingBytes: differing)
    }

    /// `compare` over byte arrays.
    public static func compare(old: [UInt8], new: [UInt8], offset: Int = 0, blockSize: Int = defaultBlockSize) -> BlockDiff {
        old.withUnsafeBytes { oldBytes in
            new.withUnsafeBytes { newBytes in compare(old: oldBytes, new: newBytes, offset: offset, blockSize: blockSize) }
        }
    }

    /// libc's `memcmp`: vectorised, and as fast in a debug build (the harness diffs each file a
    /// run writes, beside the app, so its cost is the app's machine's too).
    private static func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }
}

extension BlockDiff {
    /// How much of the old content `compare(new:offset:chunkBytes:readOld:)` holds at once.
    public static let defaultChunkBytes = 65_536

    /// The diff of two parts of one write (same block size; the parts share no block).
    public static func + (lhs: BlockDiff, rhs: BlockDiff) -> BlockDiff {
        precondition(lhs.blockSize == rhs.blockSize)
        return BlockDiff(blockSize: lhs.blockSize, changedBlocks: lhs.changedBlocks + rhs.changedBlocks,
                         changedBlockBytes: lhs.changedBlockBytes + rhs.changedBlockBytes,
                         differingBytes: lhs.differingBytes + rhs.differingBytes)
    }

    /// `compare(old:new:offset:)` with the old content read a chunk at a time: `readOld(at, buffer)`
    /// fills `buffer` with the old bytes at file offset `at` and returns how many there were
    /// (fewer where the old content ends). The diff then never holds more than `chunkBytes` of
    /// the old content, however large the write: FrugalKit's write journal diffs in the app's
    /// process, and a whole copy of the old file there (4 MiB for each save of a 4 MiB note) was
    /// counted in the app's peak memory, and left the allocator's heap holding one or two freed
    /// copies depending on timing. Chunks end on file block boundaries, so every block is compared
    /// whole and the result equals the one-buffer comparison.
    public static func compare(new: UnsafeRawBufferPointer, offset: Int = 0, blockSize: Int = defaultBlockSize,
                               chunkBytes: Int = defaultChunkBytes,
                               readOld: (_ at: Int, _ buffer: UnsafeMutableRawBufferPointer) throws -> Int) rethrows -> BlockDiff {
        precondition(blockSize > 0 && offset >= 0 && chunkBytes >= blockSize && chunkBytes % blockSize == 0)
        var total = BlockDiff(blockSize: blockSize, changedBlocks: 0, changedBlockBytes: 0, differingBytes: 0)
        guard !new.isEmpty else { return total }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(chunkBytes, new.count), alignment: 16)
        defer { buffer.deallocate() }
        var position = 0
        var oldEnded = false
        while position < new.count {
            let fileOffset = offset + position
            // Up to chunkBytes, ending where a file block ends (or where the write does).
            let end = min(new.count, fileOffset / blockSize * blockSize + chunkBytes - offset)
            let old = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(end - position)])
            var got = 0
            if !oldEnded {
                got = try readOld(fileOffset, old)
                precondition(got >= 0 && got <= old.count)
                oldEnded = got < old.count
            }
            total = total + compare(old: UnsafeRawBufferPointer(rebasing: old[0..<got]),
                                    new: UnsafeRawBufferPointer(rebasing: new[position..<end]), offset: fileOffset, blockSize: blockSize)
            position = end
        }
        return total
    }
}
