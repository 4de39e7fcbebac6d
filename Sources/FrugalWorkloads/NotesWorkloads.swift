import Foundation
import FrugalCore
import FrugalKit
import Synchronization

/// A notes app with one 4 MiB document (the user's, installed in Documents before launch) and a
/// 64 KiB search index, all read and written on a queue of its own, off the main thread. Each input is an edit burst: three 32-byte changes in three different
/// 4 KiB blocks. The whole-file strategy saves after every burst; the changed-blocks one writes
/// the changed blocks once the edits pause for 1 s (and when leaving or quitting), as the guide
/// asks ("coalesce changes whenever possible to avoid writing small changes at frequent intervals"). The index is support data the app can rebuild, so it sits in Application
/// Support excluded from backup, as the guide asks.
final class NotesApp: AppDelegate {
    enum Strategy {
        /// Atomic replacement of the whole file (temporary file, fsync, rename).
        case rewriteWhole
        /// Only the changed blocks, written in place as one batch with one fsync.
        case changedBlocks
    }

    nonisolated static let documentBytes = 4 * 1_048_576
    nonisolated static let blockSize = 4096
    nonisolated static let editsPerInput = 3
    nonisolated static let editLength = 32

    let strategy: Strategy
    let store = FileStore.shared
    let note = StoredFile(.documents, "notes.txt", dataClass: .critical)
    let index = StoredFile(.applicationSupport, "search-index.bin", dataClass: .support, excludedFromBackup: true)
    nonisolated static let indexBytes = 65_536
    let ledger = WriteLedger()
    /// The document and its edits: used only on `queue` (below), so its lock is never contended.
    struct Document {
        var bytes: [UInt8] = []
        var random = SplitMix64(seed: 0x6e6f746573)
        /// Every block edited so far: edits never share a block, so each changes exactly one.
        var editedBlocks: Set<Int> = []
        var dirtyBlocks: Set<Int> = []
    }

    let document = Mutex(Document())

    init(strategy: Strategy) { self.strategy = strategy }

    /// The user's note, there before the app's first launch.
    nonisolated static let installedNote = BundleResource(path: "notes.txt", bytes: documentBytes, content: .pattern, seed: 1)

    /// The main thread's: the pending coalesced save.
    var saveTimer: RunLoopTimer?
    /// The document, its edits and its saves are this queue's: the main thread never waits on
    /// the disk except when leaving or quitting, where the guide wants the save done.
    let queue = DispatchQueue(label: "notes.document")

    func didFinishLaunching(_ app: Application) {
        queue.async { [self] in
            document.withLock { document in
                reportingFailure(app, "open note") {
                    if store.exists(note) {
                        document.bytes = try store.read(note)
                    } else {
                        // Not installed (a plan without the workload's documents): the first launch creates it.
                        document.bytes = PatternBytes.make(count: Self.documentBytes, seed: 1)
                        try store.replace(note, with: document.bytes)
                        ledger.record(bytes: document.bytes.count, changed: document.bytes.count, synced: true)
                    }
                }
                if document.bytes.count < Self.documentBytes {
                    document.bytes += [UInt8](repeating: 0x20, count: Self.documentBytes - document.bytes.count)
                }
            }
            reportingFailure(app, "build index") {
                try store.replace(index, with: PatternBytes.make(count: Self.indexBytes, seed: 2))
                ledger.record(bytes: Self.indexBytes, changed: Self.indexBytes, synced: true)
            }
        }
    }

    func handleInput(_ app: Application, kind: String) {
        queue.async { [self] in
            edit()
            if strategy == .rewriteWhole { save(app) }
        }
        guard strategy == .changedBlocks else { return }
        saveTimer?.invalidate()
        saveTimer = app.runLoop.scheduleTimer(name: "save-note", interval: 1, repeats: false, tolerance: 0.25) { [unowned self] _ in
            self.saveTimer = nil
            self.queue.async { self.save(app) }
        }
    }

    /// One edit burst, on the document's queue.
    private nonisolated func edit() {
        document.withLock { document in
            let blocks = Self.documentBytes / Self.blockSize
            for _ in 0..<Self.editsPerInput {
                var block = Int(document.random.next() % UInt64(blocks))
                while document.editedBlocks.contains(block) { block = (block + 1) % blocks }
                document.editedBlocks.insert(block)
                document.dirtyBlocks.insert(block)
                let start = block * Self.blockSize + Int(document.random.next() % UInt64(Self.blockSize - Self.editLength))
                // Flipping the low bit changes every byte of the edit.
                for index in start..<(start + Self.editLength) { document.bytes[index] ^= 1 }
            }
        }
    }

    func didEnterBackground(_ app: Application) {
        saveTimer?.invalidate()
        saveTimer = nil
        queue.sync { save(app) }
    }

    func willTerminate(_ app: Application) {
        saveTimer?.invalidate()
        saveTimer = nil
        queue.sync { save(app) }
        ledger.report(app)
    }

    /// Writes the dirty blocks (or the whole file), on the document's queue.
    nonisolated func save(_ app: Application) {
        document.withLock { document in
            guard !document.dirtyBlocks.isEmpty else { return }
            let changed = document.dirtyBlocks.count * Self.blockSize
            reportingFailure(app, "save note") {
                switch strategy {
                case .rewriteWhole:
                    try store.replace(note, with: document.bytes)
                    ledger.record(bytes: document.bytes.count, changed: changed, synced: true)
                case .changedBlocks:
                    let extents = Self.runs(of: document.dirtyBlocks).map { run in
                        FileExtent(offset: run.lowerBound * Self.blockSize,
                                   bytes: Array(document.bytes[(run.lowerBound * Self.blockSize)..<(run.upperBound * Self.blockSize)]))
                    }
                    try store.write(note, extents: extents, sync: true)
                    ledger.record(bytes: extents.reduce(0) { $0 + $1.bytes.count }, changed: changed, synced: true)
                }
            }
            document.dirtyBlocks = []
        }
    }

    /// Adjacent blocks merged into runs, so neighbours go out in one pwrite.
    nonisolated static func runs(of blocks: Set<Int>) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for block in blocks.sorted() {
            if let last = runs.last, last.upperBound == block {
                runs[runs.count - 1] = last.lowerBound..<(block + 1)
            } else {
                runs.append(block..<(block + 1))
            }
        }
        return runs
    }
}
