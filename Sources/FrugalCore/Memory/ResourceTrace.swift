/// The run's bundle resources as the harness saw them used, from outside: an inotify watch on
/// the bundle directory (`IN_OPEN`, `IN_ACCESS`, `IN_CLOSE_NOWRITE`) and the run's processes'
/// `/proc/<pid>/io` `rchar` around each use, whatever opened the files (Foundation's
/// `Data(contentsOf:)`, `FileHandle`, `mmap`, FrugalKit's `Resource`, `cat`). A `read()` of a
/// file raises `IN_ACCESS`; a mapping's page faults do not, so a file opened and mapped shows
/// no reads. The memory audits' evidence (`memory.lazy-resources`, `memory.map-large-resources`).
public struct ResourceTrace: Codable, Sendable, Equatable {
    /// One installed resource: its path under the bundle, its size.
    public struct File: Codable, Sendable, Equatable {
        public var path: String
        public var bytes: Int
        public init(path: String, bytes: Int) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// One use of a file: from its first open to the close that left it open nowhere.
    public struct Access: Codable, Sendable, Equatable {
        public var path: String
        /// Monotonic ns when the harness read the first `IN_OPEN` (its reads follow within a
        /// wakeup of the watching thread), and the last `IN_CLOSE_NOWRITE` (nil: still open at the end).
        public var opened: UInt64
        public var closed: UInt64?
        /// `IN_ACCESS` events read: `read()` calls on the file (the kernel merges a run of them
        /// the harness has not read yet into one). 0: opened and never read (mapped, or only stat'ed).
        public var reads: Int
        /// The bytes the run's processes read through `read()` on any descriptor (`rchar`) from
        /// before the open to after the close: at most this much of the file was read; nil when
        /// `/proc/<pid>/io` could not be read.
        public var bytesReadAtMost: Int?
        /// The `rchar` readings that bound it, so uses whose windows overlap can share one bound.
        public var readWindow: ClosedRange<Int>?
        /// Whether `/proc/<pid>/maps` showed the file mapped once it was closed.
        public var mapped: Bool

        public init(path: String, opened: UInt64, closed: UInt64?, reads: Int, bytesReadAtMost: Int?,
                    readWindow: ClosedRange<Int>? = nil, mapped: Bool) {
            self.path = path
            self.opened = opened
            self.closed = closed
            self.reads = reads
            self.bytesReadAtMost = bytesReadAtMost
            self.readWindow = readWindow
            self.mapped = mapped
        }
    }

    /// Every file installed in the bundle before launch.
    public var files: [File]
    /// Each use of a file, in the order they began.
    public var accesses: [Access]
    /// Why the bundle could not be watched (the uses are then unknown, never none).
    public var unavailable: String?
    /// Why `rchar` could not be read, when it could not.
    public var bytesUnavailable: String?

    public init(files: [File], accesses: [Access], unavailable: String? = nil, bytesUnavailable: String? = nil) {
        self.files = files
        self.accesses = accesses
        self.unavailable = unavailable
        self.bytesUnavailable = bytesUnavailable
    }

    /// The metric source of this evidence.
    public static let source = "inotify:bundle+proc:io.rchar"
}

