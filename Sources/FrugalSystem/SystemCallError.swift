#if canImport(Glibc)
import Glibc
#endif
import CFrugalSystem

/// A failed system call: which call, on what, and the errno it left.
public struct SystemCallError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The call's name (`open`, `read`, `posix_spawn`).
    public var call: String
    /// What it was called on (a path, a pid), if useful.
    public var subject: String?
    public var errno: Int32

    public init(call: String, subject: String? = nil, errno: Int32) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    public var description: String {
        let message = String(cString: strerror(errno))
        return "\(call)\(subject.map { "(\($0))" } ?? ""): \(message) (errno \(errno))"
    }
}

/// Wraps each system call once, as swift-nio's `System.swift` does: retries `EINTR`, throws a
/// `SystemCallError` with the call's name and errno on failure.
public enum SystemCall {
    /// Calls `body` until it does not fail with EINTR; throws on -1.
    @discardableResult
    public static func retrying<T: FixedWidthInteger>(_ call: String, subject: String? = nil, _ body: () -> T) throws -> T {
        while true {
            let result = body()
            if result == -1 {
                let error = Glibc.errno
                if error == EINTR { continue }
                throw SystemCallError(call: call, subject: subject, errno: error)
            }
            return result
        }
    }

    /// `close(fd)`: throws on failure except EINTR, after which Linux has closed the descriptor
    /// anyway (retrying could close a number another thread just reused, as swift-nio notes).
    public static func close(_ fd: Int32, subject: String? = nil) throws {
        if Glibc.close(fd) == -1 {
            let error = Glibc.errno
            if error != EINTR { throw SystemCallError(call: "close", subject: subject, errno: error) }
        }
    }

    /// Names the calling thread as `/proc/<pid>/task/<tid>/comm` shows it (prctl PR_SET_NAME;
    /// the kernel keeps the first 15 bytes). Foundation's `Thread.name` does not do this on Linux.
    public static func nameCurrentThread(_ name: String) throws {
        try retrying("prctl", subject: "PR_SET_NAME \(name)") { frugal_set_current_thread_name(name) }
    }
}
