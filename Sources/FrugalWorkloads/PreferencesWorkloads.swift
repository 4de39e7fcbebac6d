import FrugalCore
import FrugalKit

/// An app whose settings change in bursts (a slider being dragged: ten changes per input).
/// One saves its preferences file after every change; the other marks it dirty and saves once,
/// 1 s after the last change, or when quitting if a save is still pending.
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
            self.save(app)
        }
    }

    func willTerminate(_ app: Application) {
        saveTimer?.invalidate()
        if dirty { save(app) }
        ledger.report(app)
    }

    func save(_ app: Application) {
        let text = "{\n" + settings.keys.sorted().map { "  \"\($0)\": \(settings[$0]!)" }.joined(separator: ",\n") + "\n}\n"
        let bytes = Array(text.utf8)
        reportingFailure(app, "save preferences") {
            try store.replace(file, with: bytes)
            // The app does not diff its own JSON: it counts what it wrote.
            ledger.record(bytes: bytes.count, changed: 0, synced: true)
        }
        dirty = false
    }
}
