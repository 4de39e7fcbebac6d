/// One thread's final counters, read by the kernel as the thread exited (Linux taskstats), so
/// a program's descendants are counted to their last context switch even when their own parent
/// reaped them or they were orphaned. Times are monotonic nanoseconds on the harness's clock.
public struct TaskExit: Codable, Sendable, Equatable {
    /// The thread's id (the process's id for its main thread).
    public var tid: Int32
    /// The process the thread belonged to.
    public var tgid: Int32
    /// The process's parent when it exited (1 or a subreaper for an orphan).
    public var ppid: Int32
    /// The thread's command name (`comm`, 15 characters at most).
    public var command: String
    public var voluntarySwitches: Int
    public var involuntarySwitches: Int
    public var cpuSeconds: Double
    /// Bytes the thread caused to be read from and written to storage.
    public var readBytes: Int
    public var writeBytes: Int
    /// Bytes passed to write system calls, and their count (`wchar`/`syscw`: files, pipes, terminals);
    /// nil in records made before they were kept.
    public var writeCharacters: Int?
    public var writeSyscalls: Int?
    /// Seconds the thread was runnable but waiting for a CPU (taskstats `cpu_delay_total`, the
    /// scheduler's `run_delay`): what a loaded machine added to its wall time. Nil in records made
    /// before it was kept.
    public var runQueueWaitSeconds: Double?
    /// The process's peak resident size (`hiwater_rss`), bytes.
    public var peakResidentBytes: Int
    /// When the thread started and exited.
    public var startTime: UInt64
    public var endTime: UInt64

    public init(tid: Int32, tgid: Int32, ppid: Int32, command: String, voluntarySwitches: Int, involuntarySwitches: Int,
                cpuSeconds: Double, readBytes: Int, writeBytes: Int, peakResidentBytes: Int, startTime: UInt64, endTime: UInt64) {
        self.tid = tid
        self.tgid = tgid
        self.ppid = ppid
        self.command = command
        self.voluntarySwitches = voluntarySwitches
        self.involuntarySwitches = involuntarySwitches
        self.cpuSeconds = cpuSeconds
        self.readBytes = readBytes
        self.writeBytes = writeBytes
        self.peakResidentBytes = peakResidentBytes
        self.startTime = startTime
        self.endTime = endTime
    }

    /// Whether this is the main thread of its process.
    public var isMainThread: Bool { tid == tgid }
}
