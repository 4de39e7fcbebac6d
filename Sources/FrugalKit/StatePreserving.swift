import Foundation
import FrugalProtocol

/// An app whose state survives being killed while suspended, as UIKit's state preservation:
/// the app says what its state is, writes it when it goes to the background
/// (`Application.preserveState`), and reads it back at launch (`Application.restoredState`).
/// The runtime reports `preservedState` after `didEnterBackground` and after `didFinishLaunching`,
/// so the harness can compare what a relaunched app restored with what it had.
@MainActor
public protocol StatePreserving: AnyObject {
    /// The state the user would expect to find again, as key → value.
    var preservedState: [String: String] { get }
}

extension Application {
    /// Where preserved state is kept: `Library/Application Support/preserved-state.json` in the sandbox.
    public nonisolated static var preservedStateURL: URL {
        Sandbox.current.applicationSupport.appendingPathComponent("preserved-state.json")
    }

    /// Writes `values` to the sandbox, replacing what was there (an atomic rename).
    public func preserveState(_ values: [String: String], file: String = #fileID, line: Int = #line) throws {
        let url = Application.preservedStateURL
        let data = try JSONEncoder().encode(values)
        try BlockingCalls.measure("file.write", detail: url.path, file: file, line: line) {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        }
    }

    /// What was last preserved in this sandbox, or nil when nothing was.
    public func restoredState(file: String = #fileID, line: Int = #line) -> [String: String]? {
        let url = Application.preservedStateURL
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = BlockingCalls.measure("file.read", detail: url.path, file: file, line: line) { try? Data(contentsOf: url) }
        return data.flatMap { try? JSONDecoder().decode([String: String].self, from: $0) }
    }

    /// Reports the delegate's preserved state, when it adopts `StatePreserving`.
    func reportPreservedState(_ moment: PreservedStateSnapshot.Moment) {
        guard let preserving = delegate as? StatePreserving else { return }
        emitter.emit(.preservedState(PreservedStateSnapshot(moment: moment, values: preserving.preservedState)))
    }
}
