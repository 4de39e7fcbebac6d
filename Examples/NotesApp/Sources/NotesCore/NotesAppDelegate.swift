import Foundation
import FrugalKit

/// The notes app: opens the store at launch, saves edits together, syncs once when the user
/// leaves (inside a background task it ends), lets go of its thumbnails in the background, and
/// preserves which note is open so a relaunch after a kill finds it again.
public final class NotesAppDelegate: AppDelegate, StatePreserving {
    let store = NoteStore()
    let thumbnails = ThumbnailCache()
    var sync: SyncClient!
    var clock = 0
    var openNote = 0
    /// The background task the sync on leaving runs in.
    var syncTask = BackgroundTaskIdentifier.invalid
    /// `NOTES_REGRESSION=poll` switches on the deliberate regression (see SyncClient.startPolling).
    let regression = ProcessInfo.processInfo.environment["NOTES_REGRESSION"]

    public init() {}

    public var preservedState: [String: String] { ["openNote": String(openNote)] }

    public func didFinishLaunching(_ app: Application) {
        do {
            try store.load()
        } catch {
            app.mark("notes-load-failed", detail: "\(error)")
        }
        if let restored = app.restoredState()?["openNote"].flatMap(Int.init) { openNote = restored }
        sync = SyncClient(app: app)
        if regression == "poll" { sync.startPolling(app) }
        clock = store.notes.map(\.modified).max() ?? 0
    }

    public func handleInput(_ app: Application, kind: String) {
        clock += 1
        switch kind {
        case "edit":
            store.edit(app, clock: clock)
            openNote = clock % max(1, store.notes.count)
            _ = thumbnails.thumbnail(for: openNote)
        case "sync":
            // Saved and sent together: one write, one request.
            try? store.saveIfNeeded()
            sync.push(store)
        default:
            // Scrolling the list shows a few thumbnails.
            for id in 0..<min(4, store.notes.count) { _ = thumbnails.thumbnail(for: id) }
        }
    }

    public func willResignActive(_ app: Application) {
        try? store.saveIfNeeded()
    }

    public func didEnterBackground(_ app: Application) {
        try? store.saveIfNeeded()
        try? app.preserveState(preservedState)
        thumbnails.purge()
        if regression != "poll" { sync.stopPolling() }
        // The upload may outlive didEnterBackground: ask for the time, and end the task either way.
        syncTask = app.beginBackgroundTask(name: "sync-notes") { [unowned self] in app.endBackgroundTask(syncTask) }
        sync.push(store) { [unowned self] in app.endBackgroundTask(syncTask) }
    }

    public func willTerminate(_ app: Application) {
        try? store.saveIfNeeded()
    }
}
