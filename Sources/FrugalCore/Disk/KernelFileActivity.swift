/// A run's writes as the kernel saw them (``FileChangeLog``): the evidence the disk audits decide
/// from for any process, FrugalKit's write journal being detail beside it. Pure, so the audits
/// and their tests share one reading.
public struct KernelFileActivity: Sendable {
    /// The content writes (new, replaced and in-place files), in time order: the app's, not the
    /// platform's (``platformWrites``).
    public let writes: [FileChange]
    /// Content writes the platform's libraries made for the app, on their schedule
    /// (``isPlatformStore(_:)``), in time order: shown, not charged to the app.
    public let platformWrites: [FileChange]
    /// Deletions, in time order.
    public let deletions: [FileChange]
    /// Times events were lost to a full queue.
    public let overflows: Int

    /// `arrivals`: the spans (monotonic ns) when a network request of the app's was in flight;
    /// a file held open and written in bursts then is a download arriving (``countedWrites``).
    public init(_ log: FileChangeLog, arrivals: [(start: UInt64, end: UInt64)] = []) {
        let sorted = log.changes.sorted { $0.time < $1.time }
        // A close after writing that put no byte in the file (the watcher saw the file created
        // empty, or closed again with nothing new) is no write of its own: counting it read each
        // careful save (create a temporary file, write, close, rename) as two small writes, and
        // the weather example's save that reopens its file to sync it as two. A save the watcher
        // read with the close before it (its modification already queued behind that close,
        // `readWithEarlierClose`) finds no block changed and is a write all the same (beside two
        // CPU hogs, 29 of a bad app's 60 saves were once counted).
        let content = sorted.filter {
            $0.kind.writesContent && $0.location != .bundle
                && ($0.bytesWritten > 0 || $0.kind == .replaced || $0.readWithEarlierClose == true)
        }
        writes = content.filter { !Self.isPlatformStore($0.path) }
        platformWrites = content.filter { Self.isPlatformStore($0.path) }
        deletions = sorted.filter { $0.kind == .deleted }
        overflows = log.overflows
        sizes = Self.sizes(of: writes)
        countedWrites = Self.counted(writes, sizes: sizes, arrivals: arrivals)
    }

    /// Each write as the small-write count reads it, with what it put on storage (``sizes``).
    /// A file held open and written in separate bursts (``FileChange/heldOpenBursts``) is closed,
    /// and so seen, once; each burst is a write of its own, at the burst's time, with an equal
    /// share of the bytes. A log appended and synced on each of twelve edits 0.4 s apart, kept
    /// open, once read as 1 small write (0.95) where the same app reopening the file each time
    /// read 12 (0.67). Bursts while a request of the app's was in flight are a download written
    /// as it arrives, paced by the network, not by the app: they are not counted apart (a file
    /// whose bursts all fell then is one write, as before).
    let countedWrites: [(change: FileChange, size: Int)]

    static func counted(_ writes: [FileChange], sizes: [Int], arrivals: [(start: UInt64, end: UInt64)]) -> [(change: FileChange, size: Int)] {
        var counted: [(change: FileChange, size: Int)] = []
        for (write, size) in zip(writes, sizes) {
            let bursts = (write.heldOpenBursts ?? []).filter { time in !arrivals.contains { $0.start <= time && time <= $0.end } }
            guard bursts.count > 1 else {
                counted.append((write, size))
                continue
            }
            for time in bursts {
                var burst = write
                burst.time = time
                counted.append((burst, size / bursts.count))
            }
        }
        return counted.sorted { $0.change.time < $1.change.time }
    }

    /// Whether the file at `path` (relative to the sandbox) is one the platform's libraries keep
    /// for the app and write on their own schedule: swift-corelibs-foundation's `HTTPCookieStorage`
    /// (`Library/Application Support/<bundle name>/.cookies.<storage>`), which rewrites the whole
    /// file, atomically, each time a response sets a cookie that outlives the session
    /// (`setCookie` → `updatePersistentStore`), changed or not. On iOS the URL loading system keeps
    /// the app's cookies itself; the app chooses neither the file nor when it is written, so the
    /// guide's "coalesce changes" cannot be asked of it. (A weather app refreshing five times a
    /// minute from an API that sets a load balancer's cookie read 5 small writes a minute, 0.80.)
    public static func isPlatformStore(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        return parts.count == 4 && parts[0] == "Library" && parts[1] == "Application Support" && parts[3].hasPrefix(".cookies.")
    }

    /// What each of `writes` put on storage, as far as the kernel's view tells: its own bytes, or
    /// for writes read together (``FileChange/readWithEarlierClose``), an equal share of the
    /// bytes the read that held them found. The watcher read the file once for the earlier close
    /// and the writes queued behind it, so that change's bytes are theirs together and each of
    /// theirs is 0: judged alone, each late-read write is "small" whatever it wrote. Beside the
    /// tests' other runs, an export appending eight 1 MiB chunks read three of them late and scored
    /// 0.86 on `disk.avoid-frequent-writes` for "3 small writes". The total is exact; the share is
    /// the estimate (the bad app's 140-byte saves read two at a time still share one 4 KiB block).
    let sizes: [Int]

    static func sizes(of writes: [FileChange]) -> [Int] {
        var sizes = writes.map(\.bytesWritten)
        // Per path, the indices of the last write the watcher read and those read with it.
        var groups: [String: [Int]] = [:]
        func share(_ group: [Int]) {
            guard group.count > 1 else { return }
            let each = writes[group[0]].bytesWritten / group.count
            for index in group { sizes[index] = each }
        }
        for (index, write) in writes.enumerated() {
            if write.readWithEarlierClose == true, groups[write.path] != nil {
                groups[write.path]!.append(index)
            } else {
                groups[write.path].map(share)
                groups[write.path] = [index]
            }
        }
        groups.values.forEach(share)
        return sizes
    }

    /// The kernel's view of a run, if the harness watched its sandbox.
    public init?(_ record: RunRecord) {
        guard let log = record.fileChanges, log.unavailable == nil else { return nil }
        self.init(log)
    }

    /// Writes as counted: each burst of a file held open is one (``countedWrites``).
    public var countedWriteCount: Int { countedWrites.count }

    /// Writes that put fewer than `DiskActivity.smallWriteBytes` on storage (writes read together
    /// by their share, ``sizes``; a file held open, each burst by its share, ``countedWrites``):
    /// the guide's "small changes", whose cost is per operation (a journal commit, an fsync's
    /// metadata).
    public var smallWrites: [FileChange] {
        countedWrites.filter { $0.size < DiskActivity.smallWriteBytes }.map(\.change)
    }

    /// The most small writes within any `window` ns (a run shorter than the window counts as one
    /// window), and when that window began.
    public func busiestWindow(_ window: UInt64 = 60_000_000_000) -> (count: Int, start: UInt64?) {
        DiskActivity.busiestWindow(of: smallWrites.map(\.time), window: window)
    }

    /// Writes to a file that was there before (replaced or written in place): the ones that
    /// could have written only what changed.
    public var updates: [FileChange] { writes.filter { $0.existed && $0.kind != .created } }

    /// Write amplification of the updates: bytes put on storage and bytes of the blocks that changed
    /// (at least one block per update, ``DiskActivity/leastStored(written:changed:blockSize:)``).
    public var amplification: (written: Int, changed: Int)? {
        let updates = self.updates
        guard !updates.isEmpty else { return nil }
        return (updates.reduce(0) { $0 + $1.bytesWritten },
                updates.reduce(0) { $0 + DiskActivity.leastStored(written: $1.bytesWritten, changed: $1.changedBytes) })
    }

    /// Bytes put on storage by writes seen at or after `time`.
    public func bytesWritten(since time: UInt64) -> Int {
        writes.filter { $0.time >= time }.reduce(0) { $0 + $1.bytesWritten }
    }

    /// How a write reads in evidence: `replaced Documents/journal.db: 4 MiB written, 4 KiB of blocks changed`.
    public static func describe(_ change: FileChange) -> String {
        let written = Audits.bytes(change.bytesWritten)
        var text = "\(change.kind.rawValue) \(change.path): \(written) written"
        switch change.kind {
        case .replaced, .inPlace:
            if let diff = change.diff {
                text += ", \(Audits.bytes(diff.changedBlockBytes)) of blocks changed (\(Audits.bytes(diff.differingBytes)) differ)"
            } else {
                text += ", earlier content not kept (changes not compared)"
            }
        case .created, .deleted: break
        }
        if change.truncated { text += ", truncated first" }
        if let bursts = change.heldOpenBursts, bursts.count > 1 {
            text += "; held open and written in \(bursts.count) bursts, each counted as a write"
        }
        if let via = change.via { text += ", renamed from \(via)" }
        return text
    }
}
