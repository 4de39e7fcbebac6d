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

    private static func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        var index = 0
        while index + 8 <= count {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index += 8
        }
        while index < count {
            if a.load(fromByteOffset: index, as: UInt8.self) != b.load(fromByteOffset: index, as: UInt8.self) { return false }
            index += 1
        }
        return true
    }
}
