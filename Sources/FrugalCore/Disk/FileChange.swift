/// One write to a file in the app's sandbox, as the kernel showed it to the harness (inotify on
/// the sandbox tree: a file closed after writing, or a file renamed into place), with the block
/// diff of its content against what the file held before. Evidence for any process — a FrugalKit
/// app, an app writing with Foundation or POSIX, or a black-box program — since it needs nothing
/// from the app.
public struct FileChange: Codable, Sendable, Equatable {
    /// What the write did to the file.
    public enum Kind: String, Codable, Sendable {
        /// A file that already existed (the same inode) was written in place and closed.
        case inPlace = "in-place"
        /// A new file was written (or renamed into a place where no file was).
        case created
        /// A new file replaced an existing one: written elsewhere and renamed over it (an
        /// atomic save), so every byte of it was written again.
        case replaced
        /// The file was deleted (or moved out of the sandbox).
        case deleted

        /// Whether the kind writes content.
        public var writesContent: Bool { self != .deleted }
    }

    /// Path relative to the sandbox root (`Documents/journal.db`).
    public var path: String
    public var kind: Kind
    /// Monotonic ns when the harness read the event (the close or the rename).
    public var time: UInt64
    /// The file's size after the write (nil after a delete).
    public var sizeAfter: Int?
    /// Bytes the write put on storage: the whole file for a new or replaced file; for an in-place
    /// write, the 4 KiB blocks that differ from the content before (inotify does not say which
    /// bytes a `write` covered; storage writes whole blocks), or everything from the point where
    /// the file was seen truncated (a rewrite in place that truncated it first).
    public var bytesWritten: Int
    /// Whether a file was at `path` before the write.
    public var existed: Bool
    /// The content against what the file held before, block by block; nil when the harness did
    /// not hold the earlier content (a new file, or one larger than it keeps).
    public var diff: BlockDiff?
    /// For an in-place write: the file was seen shorter than before while it was being written
    /// (opened with `O_TRUNC`, or `ftruncate`).
    public var truncated: Bool
    /// For a replacement or a new file made by a rename: the temporary file renamed into place.
    public var via: String?
    /// For an in-place write with no block changed: the watcher read the file for the close
    /// before this one after this write had already been made (its modification was queued
    /// behind that close), so this write's blocks are in that change's diff. A write all the
    /// same: the kernel reported data written before this close. Nil otherwise.
    public var readWithEarlierClose: Bool?
    /// For a file written while held open: when each separate burst of writing began (monotonic
    /// ns, as the harness read the modifications), when there was more than one. A file kept
    /// open and written again and again (a log appended and synced on each edit, a database in
    /// WAL mode) is closed, and so settled, once; its bursts are its writes
    /// (``SandboxFileWatcher``'s `burstGap` of quiet between them). Nil otherwise.
    public var heldOpenBursts: [UInt64]?

    public init(path: String, kind: Kind, time: UInt64, sizeAfter: Int?, bytesWritten: Int, existed: Bool,
                diff: BlockDiff? = nil, truncated: Bool = false, via: String? = nil) {
        self.path = path
        self.kind = kind
        self.time = time
        self.sizeAfter = sizeAfter
        self.bytesWritten = bytesWritten
        self.existed = existed
        self.diff = diff
        self.truncated = truncated
        self.via = via
    }

    /// The place in the sandbox.
    public var location: SandboxLocation { SandboxLocation(relativePath: path) }

    /// Bytes of the blocks that changed: the diff's, or every byte written when there was
    /// nothing to compare with.
    public var changedBytes: Int { diff?.changedBlockBytes ?? bytesWritten }
}

/// The kernel's account of the files a run wrote in its sandbox.
public struct FileChangeLog: Codable, Sendable, Equatable {
    /// Where the changes come from (`inotify` on the sandbox tree, with the harness's block diffs).
    public static let source = "harness:inotify+block-diff"

    /// The changes in the order the kernel reported them.
    public var changes: [FileChange]
    /// Times the kernel's event queue overflowed (events were lost): the counts are then lower bounds.
    public var overflows: Int
    /// Why the sandbox could not be watched (set when `changes` is empty for that reason).
    public var unavailable: String?

    public init(changes: [FileChange], overflows: Int = 0, unavailable: String? = nil) {
        self.changes = changes
        self.overflows = overflows
        self.unavailable = unavailable
    }
}
