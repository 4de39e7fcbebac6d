import Foundation
import FrugalCore
import FrugalKit

extension WorkloadCatalogue {
    /// Test fixtures that write with Foundation only, never through FrugalKit's `FileStore`: the
    /// disk audits must judge them from what the kernel saw (issue 30).
    static let foundationDisk: [WorkloadDefinition] = [
        WorkloadDefinition(name: "fixture.foundation-writes",
                           summary: "test fixture: per input, rewrites a 256 KiB document with Data.write(.atomic) for one changed block, patches 1 KiB of another in place with FileHandle, and saves a JSON file; nothing through FrugalKit",
                           defaultScenarios: ["disk-session"], inDefaultSuite: false,
                           documents: [FoundationWritingApp.rewritten, FoundationWritingApp.patched]) { FoundationWritingApp() },
    ]
}

/// Writes the way apps written without FrugalKit do: `Data.write(to:options: .atomic)` (a
/// temporary file renamed over the document), `FileHandle` seek + write in place, and
/// `JSONEncoder` output saved with `.atomic`. Each input changes exactly one 4 KiB block of each
/// document: the `edits`-th block, 16 bytes of it flipped in the rewritten one, 1 KiB at the
/// block's start in the patched one.
final class FoundationWritingApp: AppDelegate {
    nonisolated static let documentBytes = 262_144
    nonisolated static let rewritten = BundleResource(path: "rewritten.db", bytes: documentBytes, content: .pattern, seed: 11)
    nonisolated static let patched = BundleResource(path: "patched.db", bytes: documentBytes, content: .pattern, seed: 12)
    struct Settings: Codable { var edits = 0; var recent: [String] = [] }

    var settings = Settings()
    let documents = FileStore.shared.sandbox.documents
    let support = FileStore.shared.sandbox.applicationSupport

    func handleInput(_ app: Application, kind: String) {
        let block = settings.edits
        settings.edits += 1
        settings.recent = Array((["edit \(block)"] + settings.recent).prefix(4))
        reportingFailure(app, "foundation writes") {
            let rewrittenURL = documents.appendingPathComponent(Self.rewritten.path)
            var content = try Data(contentsOf: rewrittenURL)
            for index in (block * 4096)..<(block * 4096 + 16) { content[index] ^= 1 }
            try content.write(to: rewrittenURL, options: .atomic)

            let handle = try FileHandle(forWritingTo: documents.appendingPathComponent(Self.patched.path))
            try handle.seek(toOffset: UInt64(block * 4096))
            try handle.write(contentsOf: Data(repeating: UInt8(ascii: "A") + UInt8(block % 26), count: 1024))
            try handle.synchronize()
            try handle.close()

            try JSONEncoder().encode(settings).write(to: support.appendingPathComponent("settings.json"), options: .atomic)
        }
    }
}
