#if canImport(Glibc)
import Glibc
#endif
import FrugalCore

/// ``ProcFS/waitState(pid:tid:)`` for one thread, read again and again: its four files
/// (`status`, `wchan`, `syscall`, `schedstat`) are opened once and re-read with `pread` at
/// offset 0, which makes procfs generate them afresh. The outside watch reads a program's main
/// thread 10–40 times a second; opening four `/proc` paths each time (a path walk through
/// procfs, an open and a close each) was most of its cost. Used from one thread.
public final class ThreadWaitReader {
    public let pid: Int32
    public let tid: Int32
    /// `status`, `wchan`, `syscall`, `schedstat`; -1 where the machine does not expose the file.
    private var fds: [Int32]
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Opens the thread's files; nil when the thread is gone (its `status` cannot be opened).
    public init?(pid: Int32, tid: Int32) {
        let base = "/proc/\(pid)/task/\(tid)/"
        var fds: [Int32] = []
        for name in ["status", "wchan", "syscall", "schedstat"] {
            // A file that cannot be opened reads as nil, as ProcFS.waitState's does.
            fds.append((try? SystemCall.retrying("open", subject: base + name) { open(base + name, O_RDONLY | O_CLOEXEC) }) ?? -1)
        }
        guard fds[0] >= 0 else {
            fds.filter { $0 >= 0 }.forEach { try? SystemCall.close($0, subject: "/proc task file") }
            return nil
        }
        self.pid = pid
        self.tid = tid
        self.fds = fds
    }

    deinit { fds.filter { $0 >= 0 }.forEach { try? SystemCall.close($0, subject: "/proc task file") } }

    /// The thread's state now, parsed as ``ProcFS/waitState(pid:tid:)`` parses it; nil once the
    /// thread is gone.
    ///
    /// A thread that has not run since the last read (asleep then and now, the same switch counts
    /// and the same on-CPU time) is still in the same wait: its `wchan` and `syscall` are the last
    /// read's, not read again. Going back to sleep in another wait takes a voluntary switch, and
    /// running at all adds on-CPU time, so nothing is lost; beside a program that sleeps, this
    /// halves what each sample asks of procfs (`wchan` walks the thread's kernel stack).
    ///
    /// `quietWhileAsleep`: when the last read saw the thread asleep interruptibly (`S`) and its
    /// `schedstat` (on-CPU nanoseconds and times scheduled in, read first) shows it has not run
    /// since, the last read's state is returned and `status` is not read: without running it can
    /// neither switch nor enter another state. One woken but still waiting for a CPU reads as
    /// still asleep until it runs. For a watcher that judges nothing from such a sleep (no answer
    /// expected); `status` was half of what each sample beside a sleeping program cost procfs.
    public func read(quietWhileAsleep: Bool = false) -> ThreadWaitState? {
        guard quietWhileAsleep, let schedstat = text(3) else {
            lastTimeslices = nil
            return readStatusFirst()
        }
        let onCPU = ProcFS.parseSchedstat(schedstat) ?? 0
        let timeslices = Self.timeslices(schedstat)
        defer { lastTimeslices = timeslices }
        if let last, last.state == "S", onCPU != 0, onCPU == last.onCPUNanoseconds, timeslices != nil, timeslices == lastTimeslices {
            return last
        }
        guard let status = text(0), !status.isEmpty else { return nil }
        return parse(status: status, onCPU: onCPU)
    }

    /// `status`, then `schedstat`, as every read did before ``read(quietWhileAsleep:)``.
    private func readStatusFirst() -> ThreadWaitState? {
        guard let status = text(0), !status.isEmpty else { return nil }
        return parse(status: status, onCPU: text(3).flatMap(ProcFS.parseSchedstat) ?? 0)
    }

    /// The third field of `schedstat`: how many times the thread was scheduled in.
    static func timeslices(_ schedstat: String) -> UInt64? {
        let fields = schedstat.split(separator: " ")
        return fields.count >= 3 ? UInt64(fields[2].trimmingSpaces()) : nil
    }

    /// `schedstat`'s times scheduled in at the last read with `quietWhileAsleep`.
    private var lastTimeslices: UInt64?

    private func parse(status: String, onCPU: UInt64) -> ThreadWaitState {
        let parsed = ProcFS.parseStatus(status)
        var state = ThreadWaitState(state: parsed.state.flatMap { $0.first.map(String.init) } ?? "?", wchan: nil, syscall: nil,
                                    voluntaryContextSwitches: parsed.voluntaryContextSwitches ?? 0,
                                    involuntaryContextSwitches: parsed.involuntaryContextSwitches ?? 0, onCPUNanoseconds: onCPU)
        if let last, Self.sameWait(last, state) {
            state.wchan = last.wchan
            state.syscall = last.syscall
        } else {
            let wchan = text(1).map { String(Substring($0).trimmingSpaces()) }
            state.wchan = wchan == "0" ? nil : wchan
            state.syscall = text(2)?.split(separator: " ").first.map(String.init)
        }
        last = state
        return state
    }

    /// The last state read, for ``sameWait(_:_:)``.
    private var last: ThreadWaitState?

    /// Whether `now` is the wait `before` saw: asleep in both (`S` or `D`), with no switch and no
    /// on-CPU time between them (schedstat's on-CPU time is in nanoseconds, so any run shows).
    /// A machine without schedstat (on-CPU time 0) always reads the files afresh.
    public static func sameWait(_ before: ThreadWaitState, _ now: ThreadWaitState) -> Bool {
        (now.state == "S" || now.state == "D") && now.state == before.state && now.onCPUNanoseconds != 0
            && now.onCPUNanoseconds == before.onCPUNanoseconds
            && now.voluntaryContextSwitches == before.voluntaryContextSwitches
            && now.involuntaryContextSwitches == before.involuntaryContextSwitches
    }

    /// The whole file from offset 0, or nil when it cannot be read (the thread left: ESRCH).
    private func text(_ index: Int) -> String? {
        let fd = fds[index]
        guard fd >= 0 else { return nil }
        while true {
            let capacity = buffer.count
            guard let count = try? buffer.withUnsafeMutableBytes({ raw in
                try SystemCall.retrying("pread", subject: "/proc task file") { pread(fd, raw.baseAddress, capacity, 0) }
            }) else { return nil }
            // A file that filled the buffer may be longer: read it again into a larger one.
            if count == capacity && capacity < 1 << 20 {
                buffer = [UInt8](repeating: 0, count: capacity * 2)
                continue
            }
            return String(decoding: buffer[0..<count], as: UTF8.self)
        }
    }
}
