import Foundation
import FrugalKit

/// Sends changed notes to the server (the harness's origin, through its shaping proxy) in one
/// request, when the user leaves the app or asks, so the radio wakes once for all of them.
@MainActor
public final class SyncClient {
    private let client: NetworkClient
    private(set) var lastSynced = 0
    private var pollTimer: RunLoopTimer?

    public init(app: Application) {
        client = NetworkClient(app: app)
    }

    /// Uploads the edits not yet sent, in one request, one compact line each
    /// (`id<TAB>modified<TAB>text`): the guide's "smallest amount of data needed". `done` runs when it ends.
    public func push(_ store: NoteStore, done: @escaping @MainActor @Sendable () -> Void = {}) {
        let edits = store.pendingEdits
        guard let newest = edits.map(\.modified).max() else { done(); return }
        let body = edits.map { "\($0.noteID)\t\($0.modified)\t\($0.text)\n" }.joined()
        client.dataTask(with: .post("/upload/edits", body: Array(body.utf8), contentType: "text/plain")) { [weak self] result in
            if case .success = result {
                self?.lastSynced = newest
                store.acknowledge(upTo: newest)
            }
            done()
        }.resume()
    }

    /// The deliberate regression (`NOTES_REGRESSION=poll`): asks the server for changes every
    /// second, instead of syncing when there is something to send. Frugal's polling audits catch it.
    public func startPolling(_ app: Application) {
        pollTimer = app.runLoop.scheduleTimer(name: "poll-server", interval: 1, repeats: true) { [unowned self] _ in
            client.dataTask(with: .get("/json/200")) { _ in }.resume()
        }
    }

    public func stopPolling() {
        pollTimer?.invalidate()
        pollTimer = nil
    }
}
