#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import FrugalProbe

/// The CPU time every process of a cgroup v2 group has used so far (`cpu.stat` `usage_usec`, a
/// core file: no controller needed), read through a descriptor kept open. It grows whenever any
/// process of the group runs, so an unchanged reading means none of them ran in between: none
/// made a system call, opened a socket or connected one.
///
/// Why: the socket watch looked 4 times a second at every descriptor of every process of the
/// run (`/proc/<pid>/fd` listed, each link read; ~0.2 ms a look beside `sleep 10`) to find the
/// nothing it found the last time. With this reading it looks again only when the run ran.
/// (Asking the kernel's socket table through sock_diag filtered by the group was tried: each
/// query walks the whole established-hash table, 0.8 ms a look here, four times the `/proc` scan.)
final class CgroupCPUUsage: Sendable {
    let path: String
    private let fd: Mutex<Int32>

    /// `cpu.stat` of the v2 group at `groupPath`, or nil when it cannot be opened or read.
    init?(groupPath: String) {
        path = groupPath + "/cpu.stat"
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        fd = Mutex(opened)
        guard microseconds() != nil else { return nil }
    }

    deinit { fd.withLock { if $0 >= 0 { try? SystemCall.close($0, subject: path) } } }

    /// `usage_usec` now, or nil when it cannot be read. Parsed from the bytes: the file's first
    /// line, read into a buffer on the stack (a `String` split cost a third of each look).
    func microseconds() -> UInt64? {
        fd.withLock { fd -> UInt64? in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer -> UInt64? in
                let count = (try? SystemCall.retrying("pread", subject: path) { pread(fd, buffer.baseAddress, buffer.count, 0) }) ?? -1
                guard count > 0 else { return nil }
                return Self.usage(UnsafeBufferPointer(rebasing: buffer[0..<count]))
            }
        }
    }

    private static let usageKey = Array("usage_usec ".utf8)

    /// `usage_usec` of a `cpu.stat` text's bytes.
    static func usage(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let key = usageKey
        var lineStart = 0
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            if end - lineStart > key.count && zip(bytes[lineStart..<(lineStart + key.count)], key).allSatisfy({ $0 == $1 }) {
                var value: UInt64 = 0
                for byte in bytes[(lineStart + key.count)..<end] {
                    guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                    let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    value = product + UInt64(byte - UInt8(ascii: "0"))
                }
                return value
            }
            lineStart = end + 1
        }
        return nil
    }

    /// `usage_usec` of a `cpu.stat` text.
    static func usage(_ text: String) -> UInt64? {
        Array(text.utf8).withUnsafeBufferPointer { usage($0) }
    }
}
