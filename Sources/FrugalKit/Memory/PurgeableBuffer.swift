import FrugalProtocol
import FrugalSystem
import CFrugalSystem

/// Memory the kernel may take back while it is not in use, like `NSPurgeableData`: anonymous
/// pages given to the kernel with `MADV_FREE` by `endAccess`, and checked by `beginAccess`.
///
/// The kernel reclaims unused `MADV_FREE` pages under pressure and they read back as zero, so
/// before freeing, each page's first word is saved and replaced by a cookie; `beginAccess`
/// compares and swaps it back (one atomic step, which also re-dirties the page so the kernel
/// keeps it). A page whose cookie is gone was discarded — the way Chromium's discardable memory
/// detects it. A new buffer is pinned (being accessed), as `NSPurgeableData` is.
public final class PurgeableBuffer: DiscardableContent {
    /// The usable length, bytes.
    public let count: Int
    /// The mapped length: whole pages.
    public let mappedCount: Int
    private let base: UnsafeMutableRawPointer
    private let pageCount: Int
    private let cookie: UInt64
    private var savedWords: [UInt64]
    private var accessCount = 1
    /// Whether the last `beginAccess` found the content discarded (until it is written again).
    public private(set) var isContentDiscarded = false
    /// Pages found discarded over the buffer's life.
    public private(set) var discardedPages = 0

    /// A pinned, zero-filled buffer of `count` bytes.
    public init(count: Int) throws {
        precondition(count > 0, "a purgeable buffer needs at least one byte")
        self.count = count
        mappedCount = VirtualMemory.roundedToPages(count)
        pageCount = mappedCount / VirtualMemory.pageSize
        base = try VirtualMemory.mapAnonymous(mappedCount)
        savedWords = [UInt64](repeating: 0, count: pageCount)
        cookie = UInt64.random(in: 1...UInt64.max)
        MemoryTools.addPinnedPurgeable(mappedCount)
    }

    deinit {
        if accessCount > 0 { MemoryTools.addPinnedPurgeable(-mappedCount) }
        VirtualMemory.unmap(base, length: mappedCount)
    }

    /// The bytes; only while accessed (between `beginAccess` and `endAccess`).
    public var bytes: UnsafeMutableRawBufferPointer {
        precondition(accessCount > 0, "PurgeableBuffer.bytes outside beginAccess/endAccess")
        return UnsafeMutableRawBufferPointer(start: base, count: count)
    }

    /// Whether the buffer is pinned now.
    public var isAccessed: Bool { accessCount > 0 }

    private func word(_ page: Int) -> UnsafeMutablePointer<UInt64> {
        (base + page * VirtualMemory.pageSize).assumingMemoryBound(to: UInt64.self)
    }

    /// Odd, so never the zero a discarded page reads back as.
    private func pageCookie(_ page: Int) -> UInt64 { (cookie ^ UInt64(page)) | 1 }

    /// Pins the buffer. Returns false when the kernel discarded any of its pages: the content
    /// is gone (the buffer is zero-filled now) and must be rebuilt.
    public func beginAccess() -> Bool {
        accessCount += 1
        guard accessCount == 1 else { return !isContentDiscarded }
        MemoryTools.addPinnedPurgeable(mappedCount)
        var lost = 0
        for page in 0..<pageCount where !frugal_compare_and_swap_u64(word(page), pageCookie(page), savedWords[page]) {
            lost += 1
        }
        guard lost > 0 else {
            isContentDiscarded = false
            return true
        }
        discardedPages += lost
        isContentDiscarded = true
        // Partly discarded content is no content: make it uniformly zero.
        try? VirtualMemory.advise(base, length: mappedCount, .dontNeed)
        MemoryTools.emit(MemoryEvent(kind: .purgeableDiscarded, bytes: lost * VirtualMemory.pageSize, pages: lost))
        return false
    }

    /// Unpins the buffer: once nobody accesses it, its pages are the kernel's to take.
    public func endAccess() {
        precondition(accessCount > 0, "PurgeableBuffer.endAccess without beginAccess")
        accessCount -= 1
        guard accessCount == 0 else { return }
        isContentDiscarded = false
        for page in 0..<pageCount {
            savedWords[page] = word(page).pointee
            word(page).pointee = pageCookie(page)
        }
        MemoryTools.addPinnedPurgeable(-mappedCount)
        // Without MADV_FREE (before Linux 4.5) the pages simply stay; the cookies read back intact.
        try? VirtualMemory.advise(base, length: mappedCount, .free)
    }

    /// Throws the content away now (`MADV_DONTNEED`), if it is not being accessed.
    public func discardContentIfPossible() {
        guard accessCount == 0 else { return }
        try? VirtualMemory.advise(base, length: mappedCount, .dontNeed)
    }

    /// `NSDiscardableContent`'s name for `beginAccess()`.
    public func beginContentAccess() -> Bool { beginAccess() }
    /// `NSDiscardableContent`'s name for `endAccess()`.
    public func endContentAccess() { endAccess() }
}
