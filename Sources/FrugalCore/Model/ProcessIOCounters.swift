/// The I/O totals of a process from `/proc/<pid>/io`.
public struct ProcessIOCounters: Codable, Sendable, Equatable {
    /// Monotonic ns when they were read.
    public var time: UInt64
    /// `wchar`: bytes passed to write system calls (files, pipes, terminals alike).
    public var charactersWritten: Int?
    /// `syscw`: write system calls.
    public var writeSyscalls: Int?
    /// `write_bytes`: bytes the process caused to be written to storage (pages dirtied).
    public var physicalBytesWritten: Int?
    /// `cancelled_write_bytes`: dirtied bytes that were truncated or deleted before writeback.
    public var cancelledBytesWritten: Int?

    public init(time: UInt64, charactersWritten: Int?, writeSyscalls: Int?, physicalBytesWritten: Int?, cancelledBytesWritten: Int?) {
        self.time = time
        self.charactersWritten = charactersWritten
        self.writeSyscalls = writeSyscalls
        self.physicalBytesWritten = physicalBytesWritten
        self.cancelledBytesWritten = cancelledBytesWritten
    }

    /// The counters from parsed `/proc/<pid>/io` fields.
    public init(time: UInt64, fields: [String: Int]) {
        self.init(time: time, charactersWritten: fields["wchar"], writeSyscalls: fields["syscw"],
                  physicalBytesWritten: fields["write_bytes"], cancelledBytesWritten: fields["cancelled_write_bytes"])
    }
}

/// A file found in the app's sandbox at the end of a run.
public struct SandboxFileRecord: Codable, Sendable, Equatable {
    /// Path relative to the sandbox root.
    public var path: String
    public var bytes: Int
    /// How the file is excluded from backup, or nil if it is not.
    public var exclusion: BackupExclusionMechanism?
    /// The response of this run whose body the file holds byte for byte (`GET host/path`): data
    /// downloaded verbatim, which the app can download again. Nil when none matched or the
    /// harness did not look (only files that backups copy are compared).
    public var servedAs: String?

    public init(path: String, bytes: Int, exclusion: BackupExclusionMechanism? = nil, servedAs: String? = nil) {
        self.path = path
        self.bytes = bytes
        self.exclusion = exclusion
        self.servedAs = servedAs
    }

    public var location: SandboxLocation { SandboxLocation(relativePath: path) }

    /// Whether backups copy the file: a backed-up place, and not excluded.
    public var isBackedUp: Bool { location.isBackedUp && exclusion == nil }
}
