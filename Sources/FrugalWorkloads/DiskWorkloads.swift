import Foundation
import FrugalCore
import FrugalKit
import Synchronization

extension WorkloadCatalogue {
    /// The disk pairs (issue 6), each under the short `disk-session` scenario.
    static let disk: [WorkloadDefinition] = [
        WorkloadDefinition(name: "notes.rewrite-whole",
                           summary: "rewrites its whole 4 MiB note (atomic replace + fsync) after each edit of a few bytes (bad: write amplification)",
                           defaultScenarios: ["disk-session"], documents: [NotesApp.installedNote]) { NotesApp(strategy: .rewriteWhole) },
        WorkloadDefinition(name: "notes.append-delta",
                           summary: "writes only the 4 KiB blocks the edits changed, in one pwrite batch + fsync once edits pause for 1 s (good)",
                           defaultScenarios: ["disk-session"], documents: [NotesApp.installedNote]) { NotesApp(strategy: .changedBlocks) },
        WorkloadDefinition(name: "prefs.save-every-change",
                           summary: "saves its preferences file after every single setting change: 60 writes (bad: frequent writes)",
                           defaultScenarios: ["disk-session"]) { PreferencesApp(coalesce: false) },
        WorkloadDefinition(name: "prefs.save-coalesced",
                           summary: "saves its preferences once, 1 s after the last change, or on quitting if still unsaved (good)",
                           defaultScenarios: ["disk-session"]) { PreferencesApp(coalesce: true) },
        WorkloadDefinition(name: "downloads.in-documents",
                           summary: "keeps 16 MiB of downloaded, re-creatable map tiles in Documents, where backups copy them (bad)",
                           defaultScenarios: ["disk-session"]) { DownloadsApp(location: .documents) },
        WorkloadDefinition(name: "downloads.in-caches",
                           summary: "keeps the same 16 MiB of downloads in Library/Caches, which backups skip (good)",
                           defaultScenarios: ["disk-session"]) { DownloadsApp(location: .caches) },
        WorkloadDefinition(name: "export.leaves-tmp",
                           summary: "exports an 8 MiB archive to tmp, shares it, and leaves it there (bad)",
                           defaultScenarios: ["disk-session"]) { ExportApp(cleansUp: false) },
        WorkloadDefinition(name: "export.cleans-tmp",
                           summary: "exports the same archive to tmp, shares it, then deletes it (good)",
                           defaultScenarios: ["disk-session"]) { ExportApp(cleansUp: true) },
        WorkloadDefinition(name: "fixture.disk-bypass",
                           summary: "test fixture: writes 1 MiB with Foundation around FrugalKit and 64 KiB through it",
                           defaultScenarios: ["disk-session"], inDefaultSuite: false) { BypassingApp() },
    ]
}

/// What a disk workload knows it wrote, reported in a `disk.ground-truth` mark when it quits, so
/// tests can hold the journal and `/proc` to the app's own account.
public struct DiskGroundTruth: Codable, Sendable, Equatable {
    /// The mark's name.
    public static let markName = "disk.ground-truth"
    /// Bytes the app asked FrugalKit to write.
    public var bytesWritten = 0
    /// Content writes it made (replacements, in-place batches, appends).
    public var writes = 0
    /// Bytes of the 4 KiB blocks its writes changed, by its own account of its edits.
    public var changedBytes = 0
    /// Writes that ended in an fsync.
    public var fsyncs = 0
}

/// Counts an app's writes as it makes them; thread-safe, as downloads save off the main thread.
final class WriteLedger: Sendable {
    private let totals = Mutex(DiskGroundTruth())

    func record(bytes: Int, changed: Int, synced: Bool) {
        totals.withLock { truth in
            truth.bytesWritten += bytes
            truth.changedBytes += changed
            truth.writes += 1
            if synced { truth.fsyncs += 1 }
        }
    }

    /// Reports the totals as a mark.
    func report(_ app: Application) {
        let truth = totals.withLock { $0 }
        let json = (try? JSONEncoder().encode(truth)).map { String(decoding: $0, as: UTF8.self) }
        app.mark(DiskGroundTruth.markName, detail: json)
    }
}

/// Deterministic content: a 64 KiB SplitMix64 pattern of printable text, repeated.
enum PatternBytes {
    static func make(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz     ".utf8)
        let chunk = (0..<65_536).map { index -> UInt8 in
            index % 80 == 79 ? UInt8(ascii: "\n") : alphabet[Int(generator.next() % UInt64(alphabet.count))]
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count { bytes.append(contentsOf: chunk.prefix(count - bytes.count)) }
        return bytes
    }
}

/// Reports a failed file call as evidence instead of crashing the app.
func reportingFailure(_ app: Application, _ what: String, _ body: () throws -> Void) {
    do { try body() } catch { app.mark("disk.error", detail: "\(what): \(error)") }
}
