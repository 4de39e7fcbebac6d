/// One process of a run: a run has several when the scenario kills and relaunches the app.
public struct ProcessSegment: Codable, Sendable, Equatable {
    public var pid: Int32
    /// Monotonic ns just after spawn and when it was reaped.
    public var startTime: UInt64
    public var endTime: UInt64
    public var exitStatus: ExitStatus?
    /// `wait4`'s totals for this process.
    public var resourceUsage: ResourceUsage?
    /// The main thread's voluntary context switches read once it had exited and before it was
    /// reaped (`waitid(WNOWAIT)`, then `/proc/<pid>/status`): its final count, which no periodic sample has.
    public var mainThreadWakeupsAtExit: Int?
    /// The main thread's voluntary switches before its exec, read by the child itself just
    /// before its `execve` (the harness's setup in the held child: joining cgroups, closing
    /// descriptors, which sleep on locks on a loaded machine). Already taken off
    /// `mainThreadWakeupsAtExit`; the kernel's exit records (taskstats) still hold them, so the
    /// program's counts from those take them off. Nil when not known (older records, test doubles).
    public var voluntarySwitchesBeforeExec: Int?

    public init(pid: Int32, startTime: UInt64, endTime: UInt64, exitStatus: ExitStatus?, resourceUsage: ResourceUsage?) {
        self.pid = pid
        self.startTime = startTime
        self.endTime = endTime
        self.exitStatus = exitStatus
        self.resourceUsage = resourceUsage
    }
}

/// A listening socket of the app, found from outside through `/proc/<pid>/net/tcp{,6}` (state
/// `0A`, LISTEN) and the socket inodes behind `/proc/<pid>/fd/*`.
public struct ListeningSocket: Codable, Sendable, Equatable {
    /// `tcp` or `tcp6`.
    public var proto: String
    /// `address:port` as the kernel lists it, decoded (`127.0.0.1:40123`).
    public var localAddress: String
    public var inode: UInt64
    /// The app's file descriptor for it.
    public var fd: Int32

    public init(proto: String, localAddress: String, inode: UInt64, fd: Int32) {
        self.proto = proto
        self.localAddress = localAddress
        self.inode = inode
        self.fd = fd
    }
}

/// One suspension: from SIGSTOP (once every thread was stopped) to SIGCONT or SIGKILL.
public struct SuspensionRecord: Codable, Sendable, Equatable {
    public var pid: Int32
    /// Monotonic ns when every thread was seen stopped, and when the suspension ended.
    public var start: UInt64
    public var end: UInt64?
    /// `/proc` samples just after the stop and just before the end: nothing may change between them.
    public var sampleAtStart: ProcessSample?
    public var sampleAtEnd: ProcessSample?
    /// Listening sockets the app held while suspended.
    public var listeningSockets: [ListeningSocket]
    /// What ended it: `foreground`, `kill`, `end of scenario`.
    public var endedBy: String?

    public init(pid: Int32, start: UInt64, end: UInt64? = nil, sampleAtStart: ProcessSample?, sampleAtEnd: ProcessSample? = nil,
                listeningSockets: [ListeningSocket], endedBy: String? = nil) {
        self.pid = pid
        self.start = start
        self.end = end
        self.sampleAtStart = sampleAtStart
        self.sampleAtEnd = sampleAtEnd
        self.listeningSockets = listeningSockets
        self.endedBy = endedBy
    }

    /// On-CPU ns of the app while suspended (must be 0), when both samples exist.
    public var cpuNanoseconds: UInt64? {
        guard let first = sampleAtStart, let last = sampleAtEnd else { return nil }
        return last.onCPUNanoseconds(since: first)
    }

    /// Wakeups of the app while suspended (must be 0), when both samples exist.
    public var wakeups: Int? {
        guard let first = sampleAtStart, let last = sampleAtEnd else { return nil }
        return last.wakeups(since: first)
    }
}
