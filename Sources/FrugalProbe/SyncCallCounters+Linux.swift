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

    /// Starts counting `pid` and what it creates from now on; the reason when the machine cannot.
    /// Calls the process made before this returns are missed: prefer ``attach(cgroupPath:)``.
    public func attach(pid: Int32) -> Result<SyncCallSession, HardwareCountersUnavailable> {
        open { id, call in
            let fd = frugal_perf_open_tracepoint(id, pid)
            return fd >= 0 ? .success([fd]) : .failure(Self.openFailure(call, code: -fd))
        }
    }

    /// Starts counting every task in the v2 cgroup at `cgroupPath`, one counter per CPU, summed
    /// when read. Attached before the program is started in the group, so no call is missed
    /// however soon the program makes it (counting a spawned pid races with its first calls).
    public func attach(cgroupPath: String) -> Result<SyncCallSession, HardwareCountersUnavailable> {
        let group = Glibc.open(cgroupPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard group >= 0 else {
            return .failure(HardwareCountersUnavailable("cannot open the run's cgroup \(cgroupPath): \(String(cString: strerror(errno)))"))
        }
        defer { _ = Glibc.close(group) }
        let cpus = max(1, sysconf(Int32(_SC_NPROCESSORS_CONF)))
        return open { id, call in
            var fds: [Int32] = []
            for cpu in 0..<cpus {
                let fd = frugal_perf_open_tracepoint_cgroup(id, group, Int32(cpu))
                // An offline CPU runs no task of the group: nothing to count there.
                if fd == -ENODEV { continue }
                guard fd >= 0 else {
                    fds.forEach { _ = Glibc.close($0) }
                    return .failure(Self.openFailure(call, code: -fd))
                }
                fds.append(fd)
            }
            return fds.isEmpty ? .failure(HardwareCountersUnavailable("no online CPU took a counter of syscalls:sys_enter_\(call)")) : .success(fds)
        }
    }

    /// Opens, for each of ``calls``, the counters `openCall` makes from its tracepoint id.
    private func open(_ openCall: (UInt64, String) -> Result<[Int32], HardwareCountersUnavailable>) -> Result<SyncCallSession, HardwareCountersUnavailable> {
        guard let root = Self.tracefs() else {
            return .failure(HardwareCountersUnavailable("tracefs is not mounted and could not be (needs root): syscall tracepoints cannot be counted"))
        }
        var perCall: [[Int32]] = []
        for call in Self.calls {
            let opened: Result<[Int32], HardwareCountersUnavailable>
            if let text = try? FileReader.readText("\(root)/events/syscalls/sys_enter_\(call)/id"),
               let id = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                opened = openCall(id, call)
            } else {
                opened = .failure(HardwareCountersUnavailable("the kernel has no syscall tracepoint sys_enter_\(call) (CONFIG_FTRACE_SYSCALLS)"))
            }
            switch opened {
            case .success(let fds): perCall.append(fds)
            case .failure(let reason):
                perCall.joined().forEach { _ = Glibc.close($0) }
                return .failure(reason)
            }
        }
        return .success(SyncCallSession(fds: perCall))
    }

    private static func openFailure(_ call: String, code: Int32) -> HardwareCountersUnavailable {
        let why = code == EACCES || code == EPERM ? "counting tracepoints needs root or CAP_PERFMON (perf_event_paranoid)" : String(cString: strerror(code))
        return HardwareCountersUnavailable("perf_event_open(syscalls:sys_enter_\(call)) failed: \(why)")
    }

    /// The tracefs mount, mounting it at its usual place when it is missing and this process may.
    public static func tracefs() -> String? {
        for root in tracefsRoots where FileManager.default.fileExists(atPath: "\(root)/events/syscalls") { return root }
        guard geteuid() == 0, mount("nodev", tracefsRoots[0], "tracefs", 0, nil) == 0 else { return nil }
        return FileManager.default.fileExists(atPath: "\(tracefsRoots[0])/events/syscalls") ? tracefsRoots[0] : nil
    }
}

/// The counters of one process tree; read once its processes are reaped.
public final class SyncCallSession: @unchecked Sendable {
    // Created with the fds (per call: one, or one per CPU), read and closed by the one run that owns it.
    private var fds: [[Int32]]

    init(fds: [[Int32]]) { self.fds = fds }

    /// Calls counted, in ``SyncCallCounters/calls``' order; nil when a read failed.
    public func read() -> [Int]? {
        var counts: [Int] = []
        for callFDs in fds {
            var total = 0
            for fd in callFDs {
                var buffer = [UInt64](repeating: 0, count: 3)
                let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard got == 24 else { return nil }
                total = total.addingReportingOverflow(Int(clamping: buffer[0])).overflow ? Int.max : total + Int(clamping: buffer[0])
            }
            counts.append(total)
        }
        return counts
    }

    public func close() {
        fds.joined().forEach { _ = Glibc.close($0) }
        fds = []
    }
}
