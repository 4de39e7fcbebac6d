import Foundation
import Synchronization
import FrugalProtocol
import FrugalSystem
import CFrugalSystem

/// A read-only bundle file mapped into memory (`mmap`), as the guide advises for large
/// resources: only the pages touched become resident, and they are file-backed, so the kernel
/// can drop them under pressure and read them again. With `randomAccess` the kernel is told
/// `MADV_RANDOM`, so readahead does not hide the faults a touch costs.
///
/// Safe to use from any thread. A touch of pages that are not resident reads them from storage,
/// and on a busy disk that takes as long as the disk's queue makes it (256 pages of 4 KiB took
/// about 10 ms on an idle disk and 60–250 ms beside a writer): touch on a queue of the app's own
/// and hand the result to the main thread (`MainRunLoop.perform`), as the guide asks of work
/// that may take long ("Move Work off the Main Thread"). ``dropPages()`` may be called from any
/// thread, a memory warning's handler on the main thread among them.
public final class MappedResource: Sendable {
    /// What one `touch` cost.
    public struct Touch: Sendable {
        /// Pages of the range resident before the touch (`mincore`).
        public var residentPagesBefore: Int
        /// Pages in the range touched.
        public var pages: Int
        /// Major faults of the calling thread during the touch (`getrusage(RUSAGE_THREAD)`).
        public var majorFaults: Int?
        /// How long the touch took.
        public var nanoseconds: UInt64
        /// A checksum of the bytes read, so the reads happen.
        public var checksum: UInt64
    }

    /// The file's name in the bundle.
    public let name: String
    /// Its length, bytes.
    public let count: Int
    private let fd: Int32
    /// The mapping: read-only, and unmapped only when the resource goes (`deinit`).
    nonisolated(unsafe) private let base: UnsafeMutableRawPointer
    /// Whether the first use was reported (`resourceFirstUse`), once, from whichever thread used it first.
    private let used = Atomic<Bool>(false)

    /// Maps `name` from the bundle of `sandbox`.
    public init(named name: String, in sandbox: Sandbox = .current, randomAccess: Bool = false) throws {
        let path = sandbox.bundle.appendingPathComponent(name).path
        self.name = name
        let file = try SystemCall.retrying("open", subject: path) { open(path, O_RDONLY | O_CLOEXEC) }
        var info = stat()
        let length: Int
        let mapped: UnsafeMutableRawPointer
        do {
            try SystemCall.retrying("fstat", subject: path) { fstat(file, &info) }
            length = Int(info.st_size)
            mapped = try VirtualMemory.mapFile(fd: file, length: max(length, 1), subject: path)
            if randomAccess { try VirtualMemory.advise(mapped, length: max(length, 1), .random) }
        } catch {
            try? SystemCall.close(file, subject: path)
            throw error
        }
        fd = file
        count = length
        base = mapped
        MemoryTools.emit(MemoryEvent(kind: .resourceMapped, resource: name, bytes: count))
    }

    deinit {
        VirtualMemory.unmap(base, length: max(count, 1))
        // A read-only descriptor: a failed close loses nothing.
        try? SystemCall.close(fd, subject: name)
        MemoryTools.emit(MemoryEvent(kind: .resourceReleased, resource: name, bytes: count))
    }

    /// Pages of the mapping resident now (`mincore`), nil if the call failed.
    public var residentPages: Int? { try? VirtualMemory.residentPages(base, length: max(count, 1)) }

    /// The file's bytes, read through the mapping.
    public func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        markUsed()
        return try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Reads one byte of every page in `range` (clamped to the file) and reports the cost.
    @discardableResult
    public func touch(_ range: Range<Int>) -> Touch {
        markUsed()
        let lower = max(0, min(range.lowerBound, count)), upper = max(lower, min(range.upperBound, count))
        let page = VirtualMemory.pageSize
        let first = lower / page * page
        let length = upper - first
        let resident = length > 0 ? ((try? VirtualMemory.residentPages(base + first, length: length)) ?? 0) : 0
        let faultsBefore = try? ResourceUsage.currentThread().majorFaults
        let start = MonotonicClock.now()
        var checksum: UInt64 = 0
        var offset = first
        while offset < upper {
            checksum = checksum &* 31 &+ UInt64(frugal_volatile_read_u8((base + offset).assumingMemoryBound(to: UInt8.self)))
            offset += page
        }
        let elapsed = MonotonicClock.now() - start
        let faultsAfter = try? ResourceUsage.currentThread().majorFaults
        let faults = faultsBefore.flatMap { before in faultsAfter.map { $0 - before } }
        let pages = (length + page - 1) / page
        MemoryTools.emit(MemoryEvent(kind: .mappedTouch, resource: name, bytes: upper - lower, pages: resident,
                                     majorFaults: faults, nanoseconds: elapsed))
        return Touch(residentPagesBefore: resident, pages: pages, majorFaults: faults, nanoseconds: elapsed, checksum: checksum)
    }

    /// Gives the mapped pages back: unmaps them from this process (`MADV_DONTNEED`) and asks
    /// the kernel to drop the file's clean page cache, so the next touch reads from storage.
    public func dropPages() {
        try? VirtualMemory.advise(base, length: max(count, 1), .dontNeed)
        try? VirtualMemory.dropPageCache(fd: fd)
    }

    private func markUsed() {
        guard used.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        MemoryTools.emit(MemoryEvent(kind: .resourceFirstUse, resource: name))
    }
}
