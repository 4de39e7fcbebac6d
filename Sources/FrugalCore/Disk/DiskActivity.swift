/// A run's disk activity from the app's side: FrugalKit's write journal, joined with the files
/// the harness found in the sandbox at the end. Pure, so audits and tests share one reading.
public struct DiskActivity: Sendable {
    /// The journal, in time order.
    public let journal: [FileWrite]
    /// Monotonic ns when `willTerminate` began, if it ran: writes from then on are the guide's
    /// one exception ("when your app quits").
    public let terminationStart: UInt64?
    /// The sandbox at the end of the run, if the harness could look (nil for black-box commands).
    public let sandboxFiles: [SandboxFileRecord]?
    /// Monotonic ns spans of `didEnterBackground` handlers: on iOS leaving is how an app "quits"
    /// (it may be killed once suspended, and the guide asks for unsaved changes to be written then).
    public let backgroundTransitions: [ClosedRange<UInt64>]
    /// The writes the kernel showed the harness (inotify on the sandbox), whoever made them; nil
    /// when the sandbox was not watched.
    public let kernel: KernelFileActivity?
    /// A program run as a black box, not an app: it has no iOS API to exclude a file from backup
    /// with, so its files' exclusion is never unseen (``recreatableFilesOfUnseenExclusion``).
    public let blackBox: Bool

    public init(journal: [FileWrite], terminationStart: UInt64?, sandboxFiles: [SandboxFileRecord]?,
                backgroundTransitions: [ClosedRange<UInt64>] = [], fileChanges: FileChangeLog? = nil, blackBox: Bool = false,
                arrivals: [(start: UInt64, end: UInt64)] = []) {
        self.blackBox = blackBox
        self.journal = journal.sorted { $0.start < $1.start }
        self.terminationStart = terminationStart
        self.sandboxFiles = sandboxFiles
        self.backgroundTransitions = backgroundTransitions
        kernel = fileChanges.flatMap { $0.unavailable == nil ? KernelFileActivity($0, arrivals: arrivals) : nil }
    }

    /// The activity of a run.
    public init(_ analysis: RunAnalysis) {
        let journal = analysis.record.events.compactMap { event -> FileWrite? in
            if case .fileWrite(let write) = event.body { return write }
            return nil
        }
        self.init(journal: journal, terminationStart: analysis.handlers.first(where: RunAnalysis.isTermination)?.start,
                  sandboxFiles: analysis.record.sandboxFiles,
                  backgroundTransitions: analysis.handlers.filter { $0.name == "didEnterBackground" }.map { $0.start...max($0.start, $0.end) },
                  fileChanges: analysis.record.fileChanges, blackBox: analysis.record.blackBox,
                  arrivals: analysis.busyIntervals.filter { $0.reason == .request }.map { ($0.start, $0.end) })
    }

    /// Writes of content (replacements, in-place writes, appends).
    public var contentWrites: [FileWrite] { journal.filter { $0.operation.writesContent } }

    /// Bytes written through FrugalKit.
    public var logicalBytesWritten: Int { contentWrites.reduce(0) { $0 + $1.length } }

    /// Content writes: each replacement, in-place write or append is one operation.
    public var writeOperations: Int { contentWrites.count }

    /// fsyncs: synced writes (a replacement syncs its new file) and explicit fsyncs.
    public var fsyncs: Int { journal.filter { $0.synced || $0.operation == .fsync }.count }

    /// Whether the app wrote any file the kernel saw, wrote anything through FrugalKit, or left
    /// any file in its sandbox.
    public var wroteAnything: Bool {
        !(kernel?.writes.isEmpty ?? true) || !journal.isEmpty || (sandboxFiles?.contains { $0.location != .bundle } ?? false)
    }

    /// Whether a write happened while the app was quitting: in `willTerminate` or after it began,
    /// or in `didEnterBackground`.
    public func isAtTermination(_ write: FileWrite) -> Bool {
        if let terminationStart, write.start >= terminationStart { return true }
        return backgroundTransitions.contains { $0.contains(write.start) }
    }

    /// Below this a write is a "small change" (the guide: "avoid writing small changes at
    /// frequent intervals"): its cost is per operation (a journal commit and the fsync's
    /// metadata, a few 4 KiB blocks), not its bytes. Larger writes (a download, an export's
    /// chunks) are judged by their volume, in disk.write-budget. Frugal's calibration: at 16
    /// blocks the per-operation blocks are already a fifth or less of what a write costs.
    public static let smallWriteBytes = 65_536

    /// Content writes of fewer than `smallWriteBytes`.
    public var smallContentWrites: [FileWrite] { contentWrites.filter { $0.length < Self.smallWriteBytes } }

    /// The most small content writes that started within any `window` ns; a run shorter than
    /// the window counts as one window. Also when the busiest window began.
    public func busiestWindow(_ window: UInt64 = 60_000_000_000) -> (count: Int, start: UInt64?) {
        Self.busiestWindow(of: smallContentWrites.map(\.start), window: window)
    }

    /// The most of `times` (ascending, ns) within any `window` ns, and when that window began:
    /// one sliding window for the journal's writes and the kernel's.
    static func busiestWindow(of times: [UInt64], window: UInt64) -> (count: Int, start: UInt64?) {
        var best = 0, bestStart: UInt64?
        var first = 0
        for (index, time) in times.enumerated() {
            while times[first] + window <= time { first += 1 }
            if index - first + 1 > best {
                best = index - first + 1
                bestStart = times[first]
            }
        }
        return (best, bestStart)
    }

    /// Writes that modify a file that already existed: the ones that could have written less.
    /// A new file's first write has nothing to compare with, so it is not counted.
    public var updates: [FileWrite] { contentWrites.filter(\.existed) }

    /// Write amplification of the updates: bytes written and bytes (of blocks) that changed, at
    /// least one block per update (``leastStored(written:changed:blockSize:)``).
    public var amplification: (written: Int, changed: Int)? {
        let updates = self.updates
        guard !updates.isEmpty else { return nil }
        return (updates.reduce(0) { $0 + $1.length }, updates.reduce(0) { $0 + Self.leastStored(written: $1.length, changed: $1.changedBytes) })
    }

    /// The least a write that stores anything could have put on storage for what it changed: its
    /// changed blocks, and never less than one block, or the whole write when it is shorter.
    /// Storage writes whole blocks, so an update changes at least one; without this floor a save
    /// whose bytes all matched (a 94 B settings file saved again unchanged, or with its JSON keys
    /// in the same order by chance) read as 94× amplification, while the same save with four bytes
    /// different read as 1×: the ratio jumped on chance, not on how much was rewritten. A large
    /// file rewritten unchanged still counts its size against one block (4 MiB: 1024×).
    public static func leastStored(written: Int, changed: Int, blockSize: Int = BlockDiff.defaultBlockSize) -> Int {
        max(changed, min(written, blockSize))
    }

    /// Content writes of cache data made before the app began to quit (`isAtTermination`):
    /// writes into `Library/Caches`, and writes of data the app declared as cache wherever it put
    /// them. A new file's first write into `Library/Caches` is left out: the guide puts
    /// "downloadable content, such as that used by magazine, newspaper, and map apps" there, so
    /// storing it is not the cache-file writing it asks to avoid; rewriting it is.
    public var cacheWritesOutsideTermination: [FileWrite] {
        contentWrites.filter { write in
            (write.location == .caches || write.dataClass == .cache) && !isAtTermination(write)
                && !(write.location == .caches && !write.existed)
        }
    }

    /// The files, joined from the journal and the end-of-run scan, by path.
    public var files: [FileSummary] {
        var order: [String] = []
        var summaries: [String: FileSummary] = [:]
        for write in journal {
            if summaries[write.path] == nil {
                order.append(write.path)
                summaries[write.path] = FileSummary(path: write.path, location: write.location)
            }
            summaries[write.path]!.add(write)
        }
        for file in sandboxFiles ?? [] where file.location != .bundle && file.path != BackupExclusion.sidecarPath {
            if summaries[file.path] == nil {
                order.append(file.path)
                summaries[file.path] = FileSummary(path: file.path, location: file.location)
            }
            summaries[file.path]!.bytesAtEnd = file.bytes
            summaries[file.path]!.backedUp = file.isBackedUp
            summaries[file.path]!.exclusion = file.exclusion
            summaries[file.path]!.servedAs = file.servedAs
        }
        if sandboxFiles != nil {
            // Scanned: a journaled file missing at the end was deleted, and is not backed up.
            for path in order where summaries[path]!.bytesAtEnd == nil { summaries[path]!.backedUp = false }
        }
        return order.map { summaries[$0]! }
    }

    /// Files at the end that backups copy although their data is re-creatable: the bytes of a
    /// response the run served (downloaded verbatim: the app can download them again), or data
    /// the app declared re-creatable to FrugalKit.
    /// Files whose exclusion cannot be seen (``recreatableFilesOfUnseenExclusion``) are left out.
    public var recreatableBackedUpFiles: [FileSummary] { recreatableBackedUpAsSeen.filter { !exclusionUnseen($0) } }

    /// Files at the end with re-creatable bytes and no exclusion Frugal can read.
    private var recreatableBackedUpAsSeen: [FileSummary] {
        files.filter { $0.backedUp == true && $0.isRecreatable && ($0.bytesAtEnd ?? 0) > 0 }
    }

    /// Re-creatable files at the end that carry no exclusion Frugal can read, where the guide
    /// says to exclude them through an API that leaves no trace on Linux: downloads in
    /// Application Support that FrugalKit never wrote. The guide: "store support files in the
    /// <Application_Home>/Library/Application Support directory and add the
    /// NSURLIsExcludedFromBackupKey attribute". swift-corelibs-foundation's `setResourceValues`
    /// writes nothing for that key (no extended attribute, no error), so an app that followed the
    /// guide and one that did not leave the same file: whether backups copy it is not known.
    public var recreatableFilesOfUnseenExclusion: [FileSummary] { recreatableBackedUpAsSeen.filter(exclusionUnseen) }

    /// An app's file in Application Support, not written through FrugalKit (which records
    /// whether it excluded the file), and without the extended attribute or sidecar record Frugal
    /// reads. A program's is judged as it is: `$XDG_DATA_HOME`, where the guide's advice for a
    /// program puts no re-creatable data (`$XDG_CACHE_HOME` holds that).
    func exclusionUnseen(_ file: FileSummary) -> Bool {
        !blackBox && file.location == .applicationSupport && file.dataClass == nil && file.exclusion == nil
    }

    /// Why the re-creatable bytes backed up are not known when only files of unseen exclusion hold any.
    public static func unseenExclusionReason(_ files: [FileSummary]) -> String {
        let total = files.reduce(0) { $0 + ($1.bytesAtEnd ?? 0) }
        return "\(ByteCount.display(Double(total))) of downloaded data in Application Support (\(files.count) file\(files.count == 1 ? "" : "s")), "
            + "whose exclusion from backup cannot be seen on Linux: Foundation ignores isExcludedFromBackup there. "
            + "Exclude it with the extended attribute \(BackupExclusion.attributeName) (FrugalKit: StoredFile(excludedFromBackup: true)) for Frugal to judge it"
    }

    /// Bytes that backups copy at the end of the run (nil without a scan).
    public var backupBytes: Int? {
        sandboxFiles.map { $0.filter(\.isBackedUp).reduce(0) { $0 + $1.bytes } }
    }

    /// Files left in `tmp` at the end (nil without a scan).
    public var tmpFilesAtEnd: [SandboxFileRecord]? {
        sandboxFiles.map { $0.filter { $0.location == .tmp } }
    }
}

/// One file of the run: what the app wrote to it and what was left at the end.
public struct FileSummary: Codable, Sendable, Equatable {
    /// Path relative to the sandbox root.
    public var path: String
    public var location: SandboxLocation
    /// The data class the app declared (nil for a file FrugalKit never wrote).
    public var dataClass: FileDataClass?
    /// Content writes through FrugalKit, and their bytes.
    public var writes: Int
    public var bytesWritten: Int
    /// Bytes of the blocks those writes changed.
    public var changedBytes: Int
    public var fsyncs: Int
    /// Size at the end of the run (nil if it was gone, or the sandbox was not scanned).
    public var bytesAtEnd: Int?
    /// Whether backups copy it at the end (nil if the sandbox was not scanned).
    public var backedUp: Bool?
    /// How it was excluded from backup, if it was.
    public var exclusion: BackupExclusionMechanism?
    /// The response whose body it holds byte for byte, if one of the run's did.
    public var servedAs: String?

    /// Whether its data can be re-created: downloaded verbatim, or declared so to FrugalKit.
    public var isRecreatable: Bool { servedAs != nil || (dataClass?.isRecreatable ?? false) }

    public init(path: String, location: SandboxLocation, dataClass: FileDataClass? = nil, writes: Int = 0, bytesWritten: Int = 0,
                changedBytes: Int = 0, fsyncs: Int = 0, bytesAtEnd: Int? = nil, backedUp: Bool? = nil,
                exclusion: BackupExclusionMechanism? = nil) {
        self.path = path
        self.location = location
        self.dataClass = dataClass
        self.writes = writes
        self.bytesWritten = bytesWritten
        self.changedBytes = changedBytes
        self.fsyncs = fsyncs
        self.bytesAtEnd = bytesAtEnd
        self.backedUp = backedUp
        self.exclusion = exclusion
    }

    mutating func add(_ write: FileWrite) {
        dataClass = write.dataClass
        if write.operation.writesContent {
            writes += 1
            bytesWritten += write.length
            changedBytes += write.changedBytes
        }
        if write.synced || write.operation == .fsync { fsyncs += 1 }
    }
}
