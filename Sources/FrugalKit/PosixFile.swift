import FrugalProbe
#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor with each system call wrapped once (`SystemCall.retrying`: EINTR
/// retried, errno kept). Short reads and writes are continued until done.
struct PosixFile {
    let fd: Int32
    let path: String

    /// Opens `path` with `flags` (`O_CLOEXEC` added), creating it with mode 0644 if asked.
    static func open(_ path: String, _ flags: Int32) throws -> PosixFile {
        let fd = try SystemCall.retrying("open", subject: path) { Glibc.open(path, flags | O_CLOEXEC, 0o644) }
        return PosixFile(fd: fd, path: path)
    }

    func close() { _ = Glibc.close(fd) }

    /// The file's size now.
    func size() throws -> Int {
        var info = stat()
        try SystemCall.retrying("fstat", subject: path) { fstat(fd, &info) }
        return Int(info.st_size)
    }

    /// Reads up to `count` bytes at `offset` (fewer where the file ends).
    func read(count: Int, at offset: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = try SystemCall.retrying("pread", subject: path) {
                bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            }
            if got == 0 { break }
            done += got
        }
        return done == count ? bytes : Array(bytes[0..<done])
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            done += try SystemCall.retrying("pwrite", subject: path) {
                pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
        }
    }

    func sync() throws {
        try SystemCall.retrying("fsync", subject: path) { fsync(fd) }
    }
}

/// Path-level calls.
enum PosixPath {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func rename(_ from: String, to: String) throws {
        try SystemCall.retrying("rename", subject: "\(from) -> \(to)") { Glibc.rename(from, to) }
    }

    static func unlink(_ path: String) throws {
        try SystemCall.retrying("unlink", subject: path) { Glibc.unlink(path) }
    }
}
