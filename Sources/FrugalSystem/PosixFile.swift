#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor with each system call wrapped once (`SystemCall.retrying`: EINTR
/// retried, errno kept). Short reads and writes are continued until done.
public struct PosixFile {
    /// The descriptor, and the path it was opened with (named in errors).
    public let fd: Int32
    public let path: String

    public init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Opens `path` with `flags` (`O_CLOEXEC` added), creating it with mode 0644 if asked.
    public static func open(_ path: String, _ flags: Int32) throws -> PosixFile {
        let fd = try SystemCall.retrying("open", subject: path) { Glibc.open(path, flags | O_CLOEXEC, 0o644) }
        return PosixFile(fd: fd, path: path)
    }

    /// Closes the descriptor.
    public func close() { _ = Glibc.close(fd) }

    /// The file's size now.
    public func size() throws -> Int {
        var info = stat()
        try SystemCall.retrying("fstat", subject: path) { fstat(fd, &info) }
        return Int(info.st_size)
    }

    /// Reads up to `count` bytes at `offset` (fewer where the file ends).
    public func read(count: Int, at offset: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let done = try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        return done == count ? bytes : Array(bytes[0..<done])
    }

    /// Fills `buffer` with the bytes at `offset` and returns how many it read: fewer than
    /// `buffer.count` only where the file ends.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        var done = 0
        while done < buffer.count {
            let got = try SystemCall.retrying("pread", subject: path) {
                pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Writes all of `bytes` at `offset`.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            done += try SystemCall.retrying("pwrite", subject: path) {
                pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
        }
    }

    /// fsync(2): the file's data and metadata to storage.
    public func sync() throws {
        try SystemCall.retrying("fsync", subject: path) { fsync(fd) }
    }
}

/// Path-level calls.
public enum PosixPath {
    /// Whether `path` exists.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// rename(2): replaces `to` atomically if it exists.
    public static func rename(_ from: String, to: String) throws {
        try SystemCall.retrying("rename", subject: "\(from) -> \(to)") { Glibc.rename(from, to) }
    }

    /// unlink(2).
    public static func unlink(_ path: String) throws {
        try SystemCall.retrying("unlink", subject: path) { Glibc.unlink(path) }
    }
}
