import Foundation
import FrugalKit

/// Uploads 6 thumbnails of 1,500 B: one after another, or enqueued together. Small enough that
/// each upload is mostly the link's round trip, which is what waiting for one to finish repeats.
final class ThumbnailUploadApp: AppDelegate {
    static let thumbnails = 6
    let together: Bool
    var client: NetworkClient!
    var uploaded = 0
    init(together: Bool) { self.together = together }

    func didFinishLaunching(_ app: Application) {
        client = NetworkClient(app: app)
    }

    func handleInput(_ app: Application, kind: String) {
        if together {
            for index in 0..<Self.thumbnails { upload(index, then: nil) }
        } else {
            uploadInTurn(0)
        }
    }

    private func uploadInTurn(_ index: Int) {
        guard index < Self.thumbnails else { return }
        upload(index) { [unowned self] in uploadInTurn(index + 1) }
    }

    private func upload(_ index: Int, then next: (() -> Void)?) {
        let request = NetworkRequest.post("/upload/thumbnail-\(index)", body: Payload.bytes(1500, seed: 100 + UInt64(index)), contentType: "image/jpeg")
        client.dataTask(with: request) { [unowned self] result in
            if case .success = result { uploaded += 1 }
            next?()
        }.resume()
    }
}

/// Loads 40 items, each with its own request, each a verbose JSON document of 3,000 B.
final class VerboseAPIApp: AppDelegate {
    static let items = 40
    var client: NetworkClient!
    var loaded = 0

    func didFinishLaunching(_ app: Application) {
        client = NetworkClient(app: app)
    }

    func handleInput(_ app: Application, kind: String) {
        load(0)
    }

    private func load(_ index: Int) {
        guard index < Self.items else { return }
        // The server's /json/N documents are the verbose format: field names repeated per record.
        client.dataTask(with: .get("/json/3000?item=\(index)")) { [unowned self] result in
            if case .success = result { loaded += 1 }
            load(index + 1)
        }.resume()
    }
}

/// Loads the same 40 items in one request, packed as binary records of 2,000 B (ids, numbers
/// and a thumbnail without repeated field names), which deflate cannot shrink further.
final class CompactAPIApp: AppDelegate {
    var client: NetworkClient!
    var loaded = 0

    func didFinishLaunching(_ app: Application) {
        client = NetworkClient(app: app)
    }

    func handleInput(_ app: Application, kind: String) {
        client.dataTask(with: .get("/random/\(VerboseAPIApp.items * 2000)")) { [unowned self] result in
            if case .success(let response) = result { loaded = response.body.count / 2000 }
        }.resume()
    }
}

/// Uploads 3 notes per sync, enqueued together. The fragile one drops a note whose upload
/// failed; the resilient one retries it with exponential backoff (0.5, 1, 2, 4 s, then gives up).
final class NoteSyncApp: AppDelegate {
    static let notesPerSync = 3
    static let backoff: [Double] = [0.5, 1, 2, 4]
    let retries: Bool
    var client: NetworkClient!
    var syncs = 0
    var delivered: Set<String> = []
    init(retries: Bool) { self.retries = retries }

    func didFinishLaunching(_ app: Application) {
        client = NetworkClient(app: app)
    }

    func handleInput(_ app: Application, kind: String) {
        syncs += 1
        for index in 0..<Self.notesPerSync {
            upload("note-\(syncs)-\(index)", attempt: 0, app: app)
        }
    }

    private func upload(_ note: String, attempt: Int, app: Application) {
        let request = NetworkRequest.post("/upload/\(note)", body: Payload.bytes(1000, seed: note.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }), timeout: 3)
        client.dataTask(with: request) { [unowned self] result in
            switch result {
            case .success(let response) where response.status < 400:
                delivered.insert(note)
            default:
                guard retries, attempt < Self.backoff.count else {
                    app.mark("note-dropped", detail: note)
                    return
                }
                app.runLoop.scheduleTimer(name: "retry", interval: Self.backoff[attempt], repeats: false) { [unowned self] _ in
                    upload(note, attempt: attempt + 1, app: app)
                }
            }
        }.resume()
    }
}
