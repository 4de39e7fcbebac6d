import CFrugalSystem
import FrugalCore
import Foundation

/// Where a run's hardware counters come from: the kernel's perf events on the run's processes,
/// or a test double. A seam like ``ProcessLauncher``: the harness asks it once per process.
public protocol HardwareCounterSource: Sendable {
    /// Starts counting `pid` and everything it starts from now on; the reason when it cannot.
    func attach(pid: Int32) -> Result<any HardwareCounterSession, HardwareCountersUnavailable>
}

/// Counting one process (and its descendants); read once its whole tree has exited, when the
/// kernel has folded every inherited counter into it.
public protocol HardwareCounterSession: Sendable {
    func read() -> HardwareCounterReading
    func close()
}

/// Why a machine gives no hardware counts (no PMU in a VM, a paranoid kernel without root).
public struct HardwareCountersUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The kernel's perf events: `perf_event_open(2)` of instructions, cycles, cache misses and branch
/// misses in user space, inherited by every thread and process the program starts, each read with
/// its time enabled and running (their ratio is the multiplexing ratio: below 1 the kernel shared
/// the counter with others and scaled the count).
public struct PerfHardwareCounters: HardwareCounterSource {
    public init() {}

    public func attach(pid: Int32) -> Result<any HardwareCounterSession, HardwareCountersUnavailable> {
        var fds: [Int32] = []
        for (index, event) in HardwareCounterReading.events.enumerated() {
            let fd = frugal_perf_open_hardware(Int32(index), pid)
            guard fd >= 0 else {
                fds.forEach { _ = Glibc.close($0) }
                let code = -fd
                let why = code == ENOENT || code == EOPNOTSUPP ? "this machine has no hardware performance counters (no PMU, as in most VMs)"
                    : code == EACCES || code == EPERM ? "perf_event_paranoid forbids it for this user"
                    : String(cString: strerror(code))
                return .failure(HardwareCountersUnavailable("perf_event_open(\(event)) failed: \(why)"))
            }
            fds.append(fd)
        }
        return .success(PerfCounterSession(fds: fds))
    }
}

final class PerfCounterSession: HardwareCounterSession, @unchecked Sendable {
    // Written at creation, read and closed by the one run that owns the session.
    private var fds: [Int32]

    init(fds: [Int32]) { self.fds = fds }

    func read() -> HardwareCounterReading {
        var values: [UInt64] = []
        var enabled: UInt64 = 0, running: UInt64 = 0
        for fd in fds {
            var buffer = [UInt64](repeating: 0, count: 3)
            let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard got == 24 else { return HardwareCounterReading(unavailable: "reading the counters failed: \(String(cString: strerror(errno)))") }
            // Scaled by the kernel's own ratio, as perf stat does, when the counter was multiplexed.
            let scaled = buffer[2] > 0 && buffer[2] < buffer[1] ? UInt64(Double(buffer[0]) * Double(buffer[1]) / Double(buffer[2])) : buffer[0]
            values.append(scaled)
            enabled = max(enabled, buffer[1])
            running = running == 0 ? buffer[2] : min(running, buffer[2])
        }
        return HardwareCounterReading(instructions: values[0], cycles: values[1], cacheMisses: values[2], branchMisses: values[3],
                                      timeEnabledNanoseconds: enabled, timeRunningNanoseconds: running)
    }

    func close() {
        fds.forEach { _ = Glibc.close($0) }
        fds = []
    }
}
