import CFrugalSystem
#if canImport(Glibc)
import Glibc
#endif

/// Extended attributes of files (`user.*` names), each call wrapped once with its errno.
public enum ExtendedAttributes {
    /// Sets `name` on the file at `path` to `value`.
    public static func set(_ name: String, value: [UInt8], path: String) throws {
        try SystemCall.retrying("setxattr", subject: "\(path) \(name)") {
            value.withUnsafeBytes { setxattr(path, name, $0.baseAddress, $0.count, 0) }
        }
    }

    /// The value of `name` on `path`, or nil if the file does not have it.
    public static func get(_ name: String, path: String) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        do {
            let count = try SystemCall.retrying("getxattr", subject: "\(path) \(name)") {
                buffer.withUnsafeMutableBytes { getxattr(path, name, $0.baseAddress, $0.count) }
            }
            return Array(buffer[0..<count])
        } catch let error as SystemCallError where error.errno == ENODATA {
            return nil
        }
    }

    /// Removes `name` from `path`; a file without it is fine.
    public static func remove(_ name: String, path: String) throws {
        do {
            try SystemCall.retrying("removexattr", subject: "\(path) \(name)") { removexattr(path, name) }
        } catch let error as SystemCallError where error.errno == ENODATA {
        }
    }

    /// Whether the file system holding `path` takes `user.*` attributes: sets and removes a probe.
    public static func supported(at path: String) -> Bool {
        do {
            try set("user.frugal.probe", value: [1], path: path)
            try remove("user.frugal.probe", path: path)
            return true
        } catch {
            return false
        }
    }
}
