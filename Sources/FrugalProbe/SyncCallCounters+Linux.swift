import CFrugalSystem
import FrugalCore
import Foundation

/// Counts a program's calls that force data to storage — `fsync`, `fdatasync`, `sync_file_range`
/// — from the kernel's syscall tracepoints, on the spawned process and everything it starts
/// (inherited perf events: no tracing of the program, no PMU needed). A black-box program has no
/// FrugalKit journal, so this is the only way its syncs are known. Needs tracefs (mounted here
/// when missing and permitted) and, for tracepoints, root or CAP_PERFMON.
public struct SyncCallCounters: Sendable {
    /// The syscalls counted, by their tracepoint names under `events/syscalls/`.
    public static let calls = ["fsync", "fdatasync", "sync_file_range"]
    static let tracefsRoots = ["/sys/kernel/tracing", "/sys/kernel/debug/tracing"]

    public init() {}

    /// Starts counting `pid`; the reason when the machine cannot.
    public func attach(pid: Int32) -> Result<SyncCallSession, HardwareCountersUnavailable> {
        guard let root = Self.tracefs() else {
            return .failure(HardwareCountersUnavailable("tracefs is not mounted and could not be (needs root): syscall tracepoints cannot be counted"))
        }
        var fds: [Int32] = []
        for call in Self.calls {
            guard let text = try? FileReader.readText("\(root)/events/syscalls/sys_enter_\(call)/id"),
                  let id = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                fds.forEach { _ = Glibc.close($0) }
                return .failure(HardwareCountersUnavailable("the kernel has no syscall tracepoint sys_enter_\(call) (CONFIG_FTRACE_SYSCALLS)"))
            }
            let fd = frugal_perf_open_tracepoint(id, pid)
            guard fd >= 0 else {
                fds.forEach { _ = Glibc.close($0) }
                let code = -fd
                let why = code == EACCES || code == EPERM ? "counting tracepoints needs root or CAP_PERFMON (perf_event_paranoid)" : String(cString: strerror(code))
                return .failure(HardwareCountersUnavailable("perf_event_open(syscalls:sys_enter_\(call)) failed: \(why)"))
            }
            fds.append(fd)
        }
        return .success(SyncCallSession(fds: fds))
    }

    /// The tracefs mount, mounting it at its usual place when it is missing and this process may.
    static func tracefs() -> String? {
        for root in tracefsRoots where FileManager.default.fileExists(atPath: "\(root)/events/syscalls") { return root }
        guard geteuid() == 0, mount("nodev", tracefsRoots[0], "tracefs", 0, nil) == 0 else { return nil }
        return FileManager.default.fileExists(atPath: "\(tracefsRoots[0])/events/syscalls") ? tracefsRoots[0] : nil
    }
}

/// The counters of one process tree; read once its processes are reaped.
public final class SyncCallSession: @unchecked Sendable {
    // Created with the fds, read and closed by the one run that owns it.
    private var fds: [Int32]

    init(fds: [Int32]) { self.fds = fds }

    /// Calls counted, in ``SyncCallCounters/calls``' order; nil when a read failed.
    public func read() -> [Int]? {
        var counts: [Int] = []
        for fd in fds {
            var buffer = [UInt64](repeating: 0, count: 3)
            let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard got == 24 else { return nil }
            counts.append(Int(clamping: buffer[0]))
        }
        return counts
    }

    public func close() {
        fds.forEach { _ = Glibc.close($0) }
        fds = []
    }
}
