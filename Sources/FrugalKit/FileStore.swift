import Foundation
import FrugalProtocol
import FrugalSystem
import CFrugalSystem
import Synchronization

/// The app's files in its sandbox. Every write goes in the write journal (a `fileWrite` event:
/// path, offset, length, fsync, thread, time, call site and, for a write over existing content,
/// a block diff against what was there), and every call that touches the disk is reported
/// through `BlockingCalls`. Thread-safe; calls on one file are the app's to order.
public final class FileStore: Sendable {
    /// The store of the running app's sandbox.
    public static let shared = FileStore(sandbox: .current)

    /// The sandbox whose files this store writes.
    public let sandbox: Sandbox
    /// How exclusion from backup is recorded here: an extended attribute where the sandbox's file
    /// system takes them, else a sidecar record at the sandbox root.
    public let exclusionMechanism: BackupExclusionMechanism
    /// Where journal entries go; by default the running app's event stream.
    let journal: @Sendable (FileWrite) -> Void
    /// The paths the sidecar record lists, and whether the mechanism was announced.
    private let state: Mutex<(sidecarPaths: Set<String>, announcedMechanism: Bool)>

    /// A store over `sandbox`. `exclusionMechanism` nil detects it (`FRUGAL_BACKUP_EXCLUSION=sidecar`
    /// forces the sidecar); `journal` nil sends entries to the running app's event stream.
    public init(sandbox: Sandbox, exclusionMechanism: BackupExclusionMechanism? = nil,
                journal: (@Sendable (FileWrite) -> Void)? = nil) {
        self.sandbox = sandbox
        let forced = ProcessInfo.processInfo.environment[FrugalProtocol.Environment.backupExclusion].flatMap(BackupExclusionMechanism.init(rawValue:))
        self.exclusionMechanism = exclusionMechanism ?? forced
            ?? (ExtendedAttributes.supported(at: sandbox.root.path) ? .extendedAttribute : .sidecar)
        self.journal = journal ?? { Application.current?.emitter.emit(.fileWrite($0), at: $0.end) }
        let sidecar = sandbox.root.appendingPathComponent(BackupExclusion.sidecarPath).path
        state = Mutex(((try? FileReader.readText(sidecar)).map(BackupExclusion.parseSidecar) ?? [], false))
    }

    /// The file's URL.
    public func url(of file: StoredFile) -> URL { sandbox.root.appendingPathComponent(file.relativePath) }

    /// Whether the file exists.
    public func exists(_ file: StoredFile) -> Bool { PosixPath.exists(url(of: file).path) }

    /// Replaces the whole file atomically: writes `bytes` to a temporary file beside it, syncs
    /// it, and renames it over the old one. The journal records how many blocks really changed.
    public func replace(_ file: StoredFile, with bytes: [UInt8], callerFile: String = #fileID, callerLine: Int = #line) throws {
        let path = url(of: file).path
        try journaled(file, .replace, callSite: (callerFile, callerLine)) {
            try makeParent(path)
            let existed = PosixPath.exists(path)
            let diff: BlockDiff
            if existed {
                let current = try PosixFile.open(path, O_RDONLY)
                defer { current.close() }
                diff = try Self.diff(bytes, at: 0, against: current)
            } else {
                diff = BlockDiff.compare(old: [], new: bytes)
            }
            let temporary = (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent + ".frugal-replace"
            let handle = try PosixFile.open(temporary, O_WRONLY | O_CREAT | O_TRUNC)
            do {
                defer { handle.close() }
                try bytes.withUnsafeBytes { try handle.write($0, at: 0) }
                try handle.sync()
                try applyExclusion(file, path: temporary)
            }
            try PosixPath.rename(temporary, to: path)
            return Outcome(offset: 0, length: bytes.count, synced: true, existed: existed, diff: diff, sizeAfter: bytes.count)
        }
    }

    /// Writes `bytes` over the file at `offset` (`pwrite`), creating the file if needed; `sync`
    /// adds an fsync. The journal records the block diff against the bytes that were there.
    public func write(_ file: StoredFile, _ bytes: [UInt8], at offset: Int, sync: Bool = false,
                      callerFile: String = #fileID, callerLine: Int = #line) throws {
        try write(file, extents: [FileExtent(offset: offset, bytes: bytes)], sync: sync, callerFile: callerFile, callerLine: callerLine)
    }

    /// Writes several extents of the file in place as one coalesced operation: one open, a
    /// `pwrite` per extent, at most one fsync, one journal entry (its diff summed over the extents).
    public func write(_ file: StoredFile, extents: [FileExtent], sync: Bool = false,
                      callerFile: String = #fileID, callerLine: Int = #line) throws {
        let path = url(of: file).path
        try journaled(file, .write, callSite: (callerFile, callerLine)) {
            try makeParent(path)
            let existed = PosixPath.exists(path)
            let handle = try PosixFile.open(path, O_RDWR | O_CREAT)
            defer { handle.close() }
            var diff = BlockDiff(blockSize: BlockDiff.defaultBlockSize, changedBlocks: 0, changedBlockBytes: 0, differingBytes: 0)
            for extent in extents {
                diff = diff + (existed ? try Self.diff(extent.bytes, at: extent.offset, against: handle)
                                       : BlockDiff.compare(old: [], new: extent.bytes, offset: extent.offset))
                try extent.bytes.withUnsafeBytes { try handle.write($0, at: extent.offset) }
            }
            if sync { try handle.sync() }
            try applyExclusion(file, path: path)
            return Outcome(offset: extents.first?.offset ?? 0, length: extents.reduce(0) { $0 + $1.bytes.count }, synced: sync,
                           existed: existed, diff: diff, sizeAfter: try handle.size())
        }
    }

    /// Appends `bytes` at the end of the file, creating it if needed; `sync` adds an fsync.
    public func append(_ file: StoredFile, _ bytes: [UInt8], sync: Bool = false,
                       callerFile: String = #fileID, callerLine: Int = #line) throws {
        let path = url(of: file).path
        try journaled(file, .append, callSite: (callerFile, callerLine)) {
            try makeParent(path)
            let existed = PosixPath.exists(path)
            let handle = try PosixFile.open(path, O_WRONLY | O_CREAT)
            defer { handle.close() }
            let offset = try handle.size()
            try bytes.withUnsafeBytes { try handle.write($0, at: offset) }
            if sync { try handle.sync() }
            try applyExclusion(file, path: path)
            // Appended bytes are all new: every one of them changed.
            return Outcome(offset: offset, length: bytes.count, synced: sync, existed: existed, diff: nil, sizeAfter: offset + bytes.count)
        }
    }

    /// fsyncs the file.
    public func synchronize(_ file: StoredFile, callerFile: String = #fileID, callerLine: Int = #line) throws {
        let path = url(of: file).path
        try journaled(file, .fsync, callSite: (callerFile, callerLine)) {
            let handle = try PosixFile.open(path, O_RDONLY)
            defer { handle.close() }
            try handle.sync()
            return Outcome(offset: 0, length: 0, synced: true, existed: true, diff: nil, sizeAfter: try handle.size())
        }
    }

    /// Deletes the file.
    public func delete(_ file: StoredFile, callerFile: String = #fileID, callerLine: Int = #line) throws {
        let path = url(of: file).path
        try journaled(file, .delete, callSite: (callerFile, callerLine)) {
            try PosixPath.unlink(path)
            if exclusionMechanism == .sidecar { try updateSidecar(file.relativePath, excluded: false) }
            return Outcome(offset: 0, length: 0, synced: false, existed: true, diff: nil, sizeAfter: nil)
        }
    }

    /// Reads the whole file.
    public func read(_ file: StoredFile, callerFile: String = #fileID, callerLine: Int = #line) throws -> [UInt8] {
        let path = url(of: file).path
        return try BlockingCalls.measure("file.read", detail: file.relativePath, file: callerFile, line: callerLine) {
            let handle = try PosixFile.open(path, O_RDONLY)
            defer { handle.close() }
            return try handle.read(count: try handle.size(), at: 0)
        }
    }

    /// What one call did, for its journal entry.
    struct Outcome {
        var offset: Int
        var length: Int
        var synced: Bool
        var existed: Bool
        var diff: BlockDiff?
        var sizeAfter: Int?
    }

    /// Runs `body` as a blocking call and journals what it did.
    private func journaled(_ file: StoredFile, _ operation: FileWrite.Operation, callSite: (file: String, line: Int),
                           _ body: () throws -> Outcome) throws {
        let kind = operation == .fsync ? "file.fsync" : (operation == .delete ? "file.delete" : "file.write")
        let start = MonotonicClock.now()
        let outcome = try BlockingCalls.measure(kind, detail: file.relativePath, file: callSite.file, line: callSite.line, body)
        let end = MonotonicClock.now()
        journal(FileWrite(path: file.relativePath, dataClass: file.dataClass, excludedFromBackup: file.excludedFromBackup,
                          operation: operation, offset: outcome.offset, length: outcome.length, synced: outcome.synced,
                          existed: outcome.existed, diff: outcome.diff, sizeAfter: outcome.sizeAfter,
                          thread: Int32(frugal_gettid()), onMainThread: BlockingCalls.isMainThread, start: start, end: end,
                          callSite: "\(callSite.file):\(callSite.line)"))
    }

    /// The journal's block diff of `bytes`, about to be written at `offset`, against what the
    /// file holds there now, read 64 KiB at a time: the journal costs the app no copy of the file.
    private static func diff(_ bytes: [UInt8], at offset: Int, against file: PosixFile) throws -> BlockDiff {
        try bytes.withUnsafeBytes { new in
            try BlockDiff.compare(new: new, offset: offset) { at, buffer in try file.read(into: buffer, at: at) }
        }
    }

    private func makeParent(_ path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        if !PosixPath.exists(parent) {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
    }

    /// Records the file's exclude-from-backup flag as it is declared now.
    private func applyExclusion(_ file: StoredFile, path: String) throws {
        switch exclusionMechanism {
        case .extendedAttribute:
            if file.excludedFromBackup {
                announce()
                try ExtendedAttributes.set(BackupExclusion.attributeName, value: Array("1".utf8), path: path)
            } else {
                try ExtendedAttributes.remove(BackupExclusion.attributeName, path: path)
            }
        case .sidecar:
            if file.excludedFromBackup { announce() }
            try updateSidecar(file.relativePath, excluded: file.excludedFromBackup)
        }
    }

    /// Says once which mechanism marks exclusions, so the report can name it.
    private func announce() {
        let first = state.withLock { state -> Bool in
            defer { state.announcedMechanism = true }
            return !state.announcedMechanism
        }
        guard first else { return }
        let detail = exclusionMechanism == .extendedAttribute
            ? "extended attribute \(BackupExclusion.attributeName)"
            : "sidecar record \(BackupExclusion.sidecarPath) (the file system takes no user extended attributes)"
        Application.current?.mark("disk.backup-exclusion", detail: detail)
    }

    /// Adds or removes a path in the sidecar record, rewriting it when it changes. The record's
    /// own bytes are journaled like any other write, so they are not an unexplained gap.
    private func updateSidecar(_ relativePath: String, excluded: Bool) throws {
        let text: String? = state.withLock { state in
            let changed = excluded ? state.sidecarPaths.insert(relativePath).inserted : state.sidecarPaths.remove(relativePath) != nil
            return changed ? state.sidecarPaths.sorted().map { $0 + "\n" }.joined() : nil
        }
        guard let text else { return }
        try replace(StoredFile(.other, BackupExclusion.sidecarPath, dataClass: .support), with: Array(text.utf8))
    }
}

/// Bytes to write at an offset of a file.
public struct FileExtent: Sendable, Equatable {
    /// Where in the file the bytes go.
    public var offset: Int
    /// The bytes written there.
    public var bytes: [UInt8]
    /// `bytes` to be written at `offset`.
    public init(offset: Int, bytes: [UInt8]) {
        self.offset = offset
        self.bytes = bytes
    }
}
