/// One entry of FrugalKit's write journal: a write, fsync or delete the app made through its
/// `FileStore`, with where, how much, how much of it changed, on which thread and from where.
public struct FileWrite: Codable, Sendable, Equatable {
    /// What the call did.
    public enum Operation: String, Codable, Sendable {
        /// Whole-file replacement: the new content written to a temporary file, synced, renamed
        /// over the old one (an atomic write).
        case replace
        /// An in-place write at `offset` (`pwrite`).
        case write
        /// An append at the end of the file.
        case append
        /// `fsync` of the file on its own.
        case fsync
        /// The file was deleted.
        case delete

        /// Whether the operation writes content.
        public var writesContent: Bool { self == .replace || self == .write || self == .append }
    }

    /// The file's path relative to the sandbox root (`Documents/notes.txt`).
    public var path: String
    /// The place in the sandbox (Documents, Support, Caches, tmp), from `path`.
    public var location: SandboxLocation
    /// The kind of data the app declared the file to hold.
    public var dataClass: FileDataClass
    /// Whether the app asked for the file to be excluded from backup.
    public var excludedFromBackup: Bool
    public var operation: Operation
    /// Where in the file the bytes went (0 for a replacement, the old size for an append).
    public var offset: Int
    /// Bytes written by the call (0 for fsync and delete).
    public var length: Int
    /// Whether the call ended with an `fsync` of the file (always for a replacement).
    public var synced: Bool
    /// Whether the file existed before the call: a write to a new file has nothing to compare.
    public var existed: Bool
    /// For a content write, the block diff against what the file held before at those positions.
    public var diff: BlockDiff?
    /// The file's size after the call (nil after a delete).
    public var sizeAfter: Int?
    /// The calling thread's kernel id, and whether it is the main thread.
    public var thread: Int32
    public var onMainThread: Bool
    /// Monotonic ns at the call's start and end.
    public var start: UInt64
    public var end: UInt64
    /// `file:line` in the app's source.
    public var callSite: String

    public init(path: String, dataClass: FileDataClass, excludedFromBackup: Bool, operation: Operation, offset: Int,
                length: Int, synced: Bool, existed: Bool, diff: BlockDiff?, sizeAfter: Int?, thread: Int32,
                onMainThread: Bool, start: UInt64, end: UInt64, callSite: String) {
        self.path = path
        self.location = SandboxLocation(relativePath: path)
        self.dataClass = dataClass
        self.excludedFromBackup = excludedFromBackup
        self.operation = operation
        self.offset = offset
        self.length = length
        self.synced = synced
        self.existed = existed
        self.diff = diff
        self.sizeAfter = sizeAfter
        self.thread = thread
        self.onMainThread = onMainThread
        self.start = start
        self.end = end
        self.callSite = callSite
    }

    /// Bytes that changed: the changed blocks' bytes for a write with a diff, all of it otherwise.
    public var changedBytes: Int { diff?.changedBlockBytes ?? length }
}
