import Dispatch
import FrugalCore
import FrugalKit

/// An app whose settings change in bursts (a slider being dragged: ten changes per input).
/// One saves its preferences file after every change, on the main thread within each edit; the
/// other marks it dirty and saves once, 1 s after the last change, on a queue of its own, or
/// when quitting if a save is still pending. Its save's fsync waits on the disk for as long as
/// the disk's queue is long: on the main thread, its 785 bytes waited 31–177 ms beside a disk
/// writer, and 337 ms beside a build in one CI run, a hang (the guide: "Move Work off the Main
/// Thread").
final class PreferencesApp: AppDelegate {
    static let changesPerInput = 10

    let coalesce: Bool
    let store = FileStore.shared
    // Preferences are the user's choices: not re-creatable, so critical data.
    let file = StoredFile(.applicationSupport, "preferences.json", dataClass: .critical)
    let ledger = WriteLedger()
    var settings: [String: Int] = Dictionary(uniqueKeysWithValues: (0..<40).map { ("setting.\($0)", $0) })
    var changes = 0
    var dirty = false
    var saveTimer: RunLoopTimer?
    /// Where the coalescing one writes, one save after another.
    let saves = DispatchQueue(label: "preferences.save")

    init(coalesce: Bool) { self.coalesce = coalesce }

    func handleInput(_ app: Application, kind: String) {
        for _ in 0..<Self.changesPerInput {
            changes += 1
            settings["setting.\(changes % 40)", default: 0] += 1
            changed(app)
        }
    }

    func changed(_ app: Application) {
        guard coalesce else { return save(app) }
        dirty = true
        saveTimer?.invalidate()
        saveTimer = app.runLoop.scheduleTimer(name: "save-preferences", interval: 1, repeats: false, tolerance: 0.25) { [unowned self] _ in
            let bytes = self.encoded()
            self.dirty = false
            self.saves.async { [self] in self.write(bytes, app) }
        }
    }

    /// Quitting: a pending save is written now, and one under way is waited for, on the main
    /// thread, where the guide wants the save done before the app is gone.
    func willTerminate(_ app: Application) {
        saveTimer?.invalidate()
        let pending = dirty ? encoded() : nil
        dirty = false
        saves.sync { if let pending { write(pending, app) } }
        ledger.report(app)
    }

    func save(_ app: Application) {
        write(encoded(), app)
        dirty = false
    }

    /// The settings as the file holds them.
    func encoded() -> [UInt8] {
        Array(("{\n" + settings.keys.sorted().map { "  \"\($0)\": \(settings[$0]!)" }.joined(separator: ",\n") + "\n}\n").utf8)
    }

    nonisolated func write(_ bytes: [UInt8], _ app: Application) {
        reportingFailure(app, "save preferences") {
            try store.replace(file, with: bytes)
            // The app does not diff its own JSON: it counts what it wrote.
            ledger.record(bytes: bytes.count, changed: 0, synced: true)
        }
    }
}
