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

    /// `usage_usec` now, or nil when it cannot be read.
    func microseconds() -> UInt64? {
        fd.withLock { fd -> UInt64? in
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = buffer.withUnsafeMutableBytes { raw in
                (try? SystemCall.retrying("pread", subject: path) { pread(fd, raw.baseAddress, raw.count, 0) }) ?? -1
            }
            guard count > 0 else { return nil }
            return Self.usage(String(decoding: buffer[0..<count], as: UTF8.self))
        }
    }

    /// `usage_usec` of a `cpu.stat` text.
    static func usage(_ text: String) -> UInt64? {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 && parts[0] == "usage_usec" { return UInt64(parts[1]) }
        }
        return nil
    }
}
