#if canImport(Glibc)
import Glibc
#endif
import CFrugalSystem

/// `mmap`, `madvise`, `mincore` and `munmap`, each wrapped once with its errno, for
/// FrugalKit's purgeable buffers and mapped resources.
public enum VirtualMemory {
    /// The page size.
    public static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// `length` rounded up to whole pages.
    public static func roundedToPages(_ length: Int) -> Int { (length + pageSize - 1) / pageSize * pageSize }

    /// What `madvise` is told about a range.
    public enum Advice: Sendable {
        case normal, random, dontNeed, free, pageOut
        var value: Int32 {
            switch self {
            case .normal: return frugal_madv_normal()
            case .random: return frugal_madv_random()
            case .dontNeed: return frugal_madv_dontneed()
            case .free: return frugal_madv_free()
            case .pageOut: return frugal_madv_pageout()
            }
        }
    }

    /// Private anonymous read-write memory of `length` bytes (zero-filled, not yet resident).
    public static func mapAnonymous(_ length: Int) throws -> UnsafeMutableRawPointer {
        try checked("mmap", subject: "anonymous \(length) bytes",
                    mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
    }

    /// A read-only private mapping of `length` bytes of the file open on `fd`.
    public static func mapFile(fd: Int32, length: Int, subject: String) throws -> UnsafeMutableRawPointer {
        try checked("mmap", subject: subject, mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0))
    }

    private static func checked(_ call: String, subject: String, _ result: UnsafeMutableRawPointer?) throws -> UnsafeMutableRawPointer {
        guard let result, result != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw SystemCallError(call: call, subject: subject, errno: errno)
        }
        return result
    }

    /// `madvise(address, length, advice)`.
    public static func advise(_ address: UnsafeMutableRawPointer, length: Int, _ advice: Advice) throws {
        try SystemCall.retrying("madvise", subject: "\(advice)") { madvise(address, length, advice.value) }
    }

    /// `posix_fadvise(fd, 0, 0, DONTNEED)`: asks the kernel to drop the file's clean page cache.
    public static func dropPageCache(fd: Int32) throws {
        let result = posix_fadvise(fd, 0, 0, frugal_fadv_dontneed())
        if result != 0 { throw SystemCallError(call: "posix_fadvise", subject: "DONTNEED", errno: result) }
    }

    /// `munmap`. It fails only for an address range that is not a mapping (EINVAL), a bug the
    /// caller cannot recover from at its release: the failure is dropped.
    public static func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
        _ = try? SystemCall.retrying("munmap") { munmap(address, length) }
    }

    /// How many of the range's pages are resident (`mincore`).
    public static func residentPages(_ address: UnsafeMutableRawPointer, length: Int) throws -> Int {
        let pages = (length + pageSize - 1) / pageSize
        var vector = [UInt8](repeating: 0, count: pages)
        try SystemCall.retrying("mincore") { vector.withUnsafeMutableBufferPointer { mincore(address, length, $0.baseAddress) } }
        return vector.reduce(0) { $0 + Int($1 & 1) }
    }
}
