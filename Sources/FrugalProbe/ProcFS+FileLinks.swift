#if canImport(Glibc)
import Glibc
#endif

extension ProcFS {
    /// What an fd link of `/proc/<pid>/fd` points to (`socket:[12345]`, `pipe:[…]`, a path), up
    /// to 255 bytes, or nil when it cannot be read (the fd closed, the process gone).
    ///
    /// readlink(2) itself: `FileManager.destinationOfSymbolicLink` stats the link and converts
    /// the path through Foundation's file-system representation first; the socket watch reads
    /// every fd of every process of the run 4–20 times a second, and Foundation's way was about
    /// 4 % of the harness's CPU beside `sleep 10` (perf record, release build).
    public static func fdLink(pid: Int32, fd name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlink("/proc/\(pid)/fd/\(name)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
