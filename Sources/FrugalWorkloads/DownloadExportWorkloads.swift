import Foundation
import FrugalCore
import FrugalKit

/// Downloads four 4 MiB map tiles (one per input, saved off the main thread). The data is
/// re-creatable (it can be downloaded again), and the app says so; the two differ only in where
/// they keep it.
final class DownloadsApp: AppDelegate {
    static let downloads = 4
    nonisolated static let bytesPerDownload = 4 * 1_048_576

    let location: SandboxLocation
    let store = FileStore.shared
    let ledger = WriteLedger()
    let queue = DispatchQueue(label: "downloads")
    var started = 0

    init(location: SandboxLocation) { self.location = location }

    func handleInput(_ app: Application, kind: String) {
        guard started < Self.downloads else { return }
        let index = started
        started += 1
        let file = StoredFile(location, "downloads/map-\(index).bin", dataClass: .cache)
        queue.async { [store, ledger] in
            // Stands in for the network: the network area measures transfers, this one the files.
            let bytes = PatternBytes.make(count: Self.bytesPerDownload, seed: UInt64(100 + index))
            reportingFailure(app, "save download") {
                try store.replace(file, with: bytes)
                ledger.record(bytes: bytes.count, changed: bytes.count, synced: true)
            }
        }
    }

    func willTerminate(_ app: Application) {
        queue.sync {}
        ledger.report(app)
    }
}

/// Exports an 8 MiB archive to tmp in 1 MiB appends on a queue of its own, reads it back to
/// "share" it, and then deletes it, or does not.
final class ExportApp: AppDelegate {
    nonisolated static let chunks = 8
    nonisolated static let chunkBytes = 1_048_576

    let cleansUp: Bool
    let store = FileStore.shared
    let file = StoredFile(.tmp, "export/archive.zip", dataClass: .temporary)
    let ledger = WriteLedger()
    var exported = false

    init(cleansUp: Bool) { self.cleansUp = cleansUp }

    /// The export's disk work runs here, off the main thread (the guide: "Move Work off the Main Thread").
    let queue = DispatchQueue(label: "export")

    func handleInput(_ app: Application, kind: String) {
        guard !exported else { return }
        exported = true
        queue.async { [self] in
            reportingFailure(app, "export") {
                for chunk in 0..<Self.chunks {
                    let bytes = PatternBytes.make(count: Self.chunkBytes, seed: UInt64(200 + chunk))
                    let last = chunk == Self.chunks - 1
                    try store.append(file, bytes, sync: last)
                    ledger.record(bytes: bytes.count, changed: bytes.count, synced: last)
                }
                let shared = try store.read(file)
                app.mark("export.shared", detail: "\(shared.count) bytes")
                if cleansUp { try store.delete(file) }
            }
        }
    }

    func willTerminate(_ app: Application) {
        queue.sync {}
        ledger.report(app)
    }
}

/// A test fixture that writes around FrugalKit: 1 MiB with Foundation straight into Documents,
/// and 64 KiB through `FileStore`. Only `/proc` sees the first; the report shows the gap.
final class BypassingApp: AppDelegate {
    static let bypassBytes = 1_048_576
    static let journaledBytes = 65_536
    let ledger = WriteLedger()

    func handleInput(_ app: Application, kind: String) {
        guard kind != "done" else { return }
        reportingFailure(app, "bypass") {
            let url = FileStore.shared.sandbox.documents.appendingPathComponent("bypass.bin")
            try Data(PatternBytes.make(count: Self.bypassBytes, seed: 300)).write(to: url)
            try FileStore.shared.replace(StoredFile(.documents, "journaled.bin", dataClass: .critical),
                                         with: PatternBytes.make(count: Self.journaledBytes, seed: 301))
            ledger.record(bytes: Self.journaledBytes, changed: Self.journaledBytes, synced: true)
        }
    }

    func willTerminate(_ app: Application) { ledger.report(app) }
}
