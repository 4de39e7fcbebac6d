#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FrugalCore

/// Readers for the processes of a run beyond the one the harness spawned: their command lines,
/// start times, and where a thread waits in the kernel.
extension ProcFS {
    /// The command line of `pid` (arguments joined by spaces), its name when that is empty (a
    /// kernel thread, a zombie), or `?` when the process is gone.
    public static func commandLine(pid: Int32) -> String {
        arguments(pid: pid) ?? (try? FileReader.readText("/proc/\(pid)/comm"))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }

    /// The arguments of `pid` joined by spaces, or nil when `cmdline` is empty (a zombie, a
    /// kernel thread, or a process in the middle of an exec).
    public static func arguments(pid: Int32) -> String? {
        guard let text = try? FileReader.readText("/proc/\(pid)/cmdline"), !text.isEmpty else { return nil }
        return text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
            .joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    /// Field 22 of `/proc/<pid>/stat` (the start time in clock ticks after boot), from the text.
    public static func parseStartTicks(stat text: String) -> UInt64? {
        // The command in parentheses may hold spaces and parentheses: fields start after the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field 22 is fields[19].
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// The parent of `pid` now (field 4 of `/proc/<pid>/stat`), or nil when it is gone.
    public static func parentProcess(pid: Int32) -> Int32? {
        guard let text = try? FileReader.readText("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// The size of `pid`'s address space in pages (the first field of `/proc/<pid>/statm`), or
    /// nil when it is gone. Cheap for the kernel, unlike `maps`: it changes whenever a file is
    /// mapped (a `dlopen`), so an unchanged size means the maps read last still hold.
    public static func addressSpacePages(pid: Int32) -> UInt64? {
        guard let text = try? FileReader.readText("/proc/\(pid)/statm") else { return nil }
        return text.split(separator: " ").first.flatMap { UInt64($0) }
    }

    /// When `pid` started, in monotonic nanoseconds, or nil when it is gone.
    public static func startTime(pid: Int32) -> UInt64? {
        guard let text = try? FileReader.readText("/proc/\(pid)/stat"), let ticks = parseStartTicks(stat: text) else { return nil }
        return startTime(ticks: ticks)
    }

    /// A start time in clock ticks after boot (``parseStartTicks(stat:)``) in monotonic
    /// nanoseconds. It is the start rounded down to a tick (10 ms at 100 Hz).
    public static func startTime(ticks: UInt64) -> UInt64 {
        let hertz = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        var boot = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        // The start time counts from boot, suspended time included; the monotonic clock does not.
        let suspended = (Int64(boot.tv_sec) - Int64(monotonic.tv_sec)) * 1_000_000_000 + Int64(boot.tv_nsec) - Int64(monotonic.tv_nsec)
        // Whole seconds and the rest apart: ticks × 10⁹ overflows after 5.8 years of uptime at 100 Hz.
        let nanoseconds = (ticks / hertz).multipliedReportingOverflow(by: 1_000_000_000).partialValue + ticks % hertz * 1_000_000_000 / hertz
        let started = Int64(clamping: nanoseconds) - max(0, suspended)
        return started > 0 ? UInt64(started) : 0
    }

    /// Whether a thread is asleep in the kernel's own sense: blocked, and off the run queue.
    ///
    /// `status` shows `S` from the moment a thread sets its state to go to sleep, before the
    /// switch that counts it as voluntary; a thread preempted in between (a loaded machine) reads
    /// `S` with its old count, runnable, for as long as it waits for a CPU. Since Linux 5.16
    /// `wchan` names a function only for a task that is not running and not on a run queue
    /// (`get_wchan`, kernel/sched/core.c), so `0` there means "running or about to". Nil when it
    /// cannot be read. Also `0` without ptrace access to the task: callers treat an `S` thread
    /// that always reads `0` as unknown, not as awake.
    public static func isOffRunQueue(tid: Int32) -> Bool? {
        guard let wchan = try? FileReader.readText("/proc/\(tid)/wchan") else { return nil }
        return wchan.trimmingCharacters(in: .whitespacesAndNewlines) != "0"
    }

    /// Where a thread waits, as the kernel shows it: its state, `wchan` (the kernel function it
    /// sleeps in; `0` when running) and `syscall` (the number of the call it is blocked in, or
    /// `running`). Nil when the thread is gone; a file the machine does not expose reads as nil.
    public static func waitState(pid: Int32, tid: Int32) -> ThreadWaitState? {
        let base = "/proc/\(pid)/task/\(tid)"
        guard let status = try? FileReader.readText("\(base)/status") else { return nil }
        let parsed = parseStatus(status)
        // Trimmed by hand: Foundation's trimmingCharacters(in:) was a tenth of the watcher's CPU.
        let wchan = (try? FileReader.readText("\(base)/wchan")).map { String(Substring($0).trimmingSpaces()) }
        let syscall = (try? FileReader.readText("\(base)/syscall"))?.split(separator: " ").first.map(String.init)
        let onCPU = (try? FileReader.readText("\(base)/schedstat")).flatMap(parseSchedstat)
        return ThreadWaitState(state: parsed.state.flatMap { $0.first.map(String.init) } ?? "?", wchan: wchan == "0" ? nil : wchan,
                               syscall: syscall, voluntaryContextSwitches: parsed.voluntaryContextSwitches ?? 0,
                               involuntaryContextSwitches: parsed.involuntaryContextSwitches ?? 0, onCPUNanoseconds: onCPU ?? 0)
    }
}
