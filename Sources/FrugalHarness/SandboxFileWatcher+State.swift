import Foundation
import FrugalCore
import FrugalProbe

/// A file's content as the watcher last saw it.
struct Shadow {
    var inode: UInt64
    var size: Int
    /// Modification time, ns.
    var modified: Int = 0
    /// Nil when too large to keep.
    var bytes: [UInt8]?

    init(inode: UInt64, size: Int, bytes: [UInt8]?, info: stat) {
        self.inode = inode
        self.size = size
        self.bytes = bytes
        modified = Self.time(info)
    }

    static func time(_ info: stat) -> Int { Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec) }
}

/// A file being written: seen modified, not yet closed.
struct Episode {
    /// The least size seen while it was written (a truncation shows as a size below the old one).
    var leastSize: Int?
    /// The size when it was last seen modified.
    var lastSize: Int?
    /// A descriptor on the file being written, opened at its first modification (the watcher's
    /// own, closed when the write is settled).
    var fd: Int32?
    /// Renamed over another file while open: the content it replaced.
    var renamedOver: Shadow?
    var via: String?
    /// When each burst of modification began, and when the last modification was read: a
    /// modification read more than ``SandboxFileWatcher/burstGap`` after the one before begins a
    /// new burst (a separate write to a file held open).
    var bursts: [UInt64] = []
    var lastModified: UInt64?
}

/// The watcher's state, held by its lock.
struct WatchState {
    var directories: [Int32: String] = [:]
    var shadows: [String: Shadow] = [:]
    var episodes: [String: Episode] = [:]
    var moves: [UInt32: String] = [:]
    var changes: [FileChange] = []
    /// The index in `changes` of each path's last change.
    var lastChange: [String: Int] = [:]
    /// Files found in a directory when it was first watched, with their `created` change: a
    /// close that follows completes that change (they were being written when found).
    var provisional: [String: Int] = [:]
    /// Paths whose last close was settled while a later modification of the same file was
    /// already queued: the content read then was the later write's, whose own close will find
    /// no block changed.
    var readAhead: Set<String> = []
    var overflows = 0
    var rootUnwatched: String?
    var keptBytes = 0

    /// Whether a file of `size` bytes may be kept for diffing; counts it if so.
    mutating func keep(_ size: Int) -> Bool {
        guard size <= SandboxFileWatcher.largestKeptFile, keptBytes + size <= SandboxFileWatcher.keptBudget else { return false }
        keptBytes += size
        return true
    }

    mutating func release(_ shadow: Shadow?) {
        if let count = shadow?.bytes?.count { keptBytes -= count }
    }

    mutating func record(_ change: FileChange) {
        changes.append(change)
        lastChange[change.path] = changes.count - 1
    }
}
