import Foundation
import FrugalKit

/// A note the user writes.
public struct Note: Codable, Equatable {
    public var id: Int
    public var title: String
    public var body: String
    public var modified: Int
}

/// One change to a note, as the sync client sends it.
public struct Edit: Equatable {
    public var noteID: Int
    public var modified: Int
    /// The text appended (a new note's whole text).
    public var text: String
}

/// The notes, kept in `Documents/notes.json` (the user's data: backed up). Edits are kept in
/// memory and saved together: at most once per `saveDelay`, and at once on leaving the foreground.
@MainActor
public final class NoteStore {
    public private(set) var notes: [Note] = []
    /// Edits not yet sent to the server: only these go out, not whole notes.
    public private(set) var pendingEdits: [Edit] = []
    private let file = StoredFile(.documents, "notes.json", dataClass: .critical)
    private let store = FileStore.shared
    private var dirty = false
    private var saveTimer: RunLoopTimer?
    /// The guide: "coalesce changes whenever possible to avoid writing small changes at frequent intervals".
    let saveDelay = 2.0

    public init() {}

    /// Reads the notes the sandbox already has (installed from `Fixtures/Documents` by frugal.yml).
    public func load() throws {
        guard store.exists(file) else { return }
        notes = try JSONDecoder().decode([Note].self, from: Data(try store.read(file)))
    }

    /// Changes a note, and schedules one save for every change made within `saveDelay`.
    public func edit(_ app: Application, clock: Int) {
        let index = clock % max(1, notes.count + 1)
        if index < notes.count {
            let text = " Edited at \(clock)."
            notes[index].body += text
            notes[index].modified = clock
            pendingEdits.append(Edit(noteID: notes[index].id, modified: clock, text: text))
        } else {
            let note = Note(id: notes.count + 1, title: "Note \(notes.count + 1)", body: "Written at \(clock).", modified: clock)
            notes.append(note)
            pendingEdits.append(Edit(noteID: note.id, modified: clock, text: note.body))
        }
        dirty = true
        if saveTimer == nil {
            saveTimer = app.runLoop.scheduleTimer(name: "save-notes", interval: saveDelay, repeats: false) { [unowned self] _ in
                saveTimer = nil
                try? saveIfNeeded()
            }
        }
    }

    /// Writes the notes if anything changed since the last save.
    public func saveIfNeeded() throws {
        guard dirty else { return }
        saveTimer?.invalidate()
        saveTimer = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try store.replace(file, with: [UInt8](try encoder.encode(notes)))
        dirty = false
    }

    /// Forgets the edits up to `modified` once the server has them.
    public func acknowledge(upTo modified: Int) {
        pendingEdits.removeAll { $0.modified <= modified }
    }
}
