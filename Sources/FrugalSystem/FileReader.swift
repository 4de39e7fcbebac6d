#if canImport(Glibc)
import Glibc
#endif

/// Reads small files (`/proc`, `/sys`) whole, with plain system calls: no Foundation, no
/// buffering surprises, and errors that carry errno.
public enum FileReader {
    /// The file's contents as UTF-8 text.
    public static func readText(_ path: String) throws -> String {
        let fd = try SystemCall.retrying("open", subject: path) { open(path, O_RDONLY | O_CLOEXEC) }
        // Read-only: a failed close loses nothing.
        defer { try? SystemCall.close(fd, subject: path) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try SystemCall.retrying("read", subject: path) {
                buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `path` exists.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The names in a directory, without `.` and `..`.
    public static func directoryEntries(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw SystemCallError(call: "opendir", subject: path, errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
