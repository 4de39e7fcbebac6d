import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FrugalKit

/// network.transmit-in-bursts. At launch, sends the 16 usage events recorded while offline.
/// Good: all 16 in one POST. Bad: one POST per event, 3 s apart (a `Task.sleep` "not to flood
/// the server"), so the radio never rests for 45 s.
final class MetricsApp: AppDelegate {
    let batches: Bool
    init(batches: Bool) { self.batches = batches }

    func didFinishLaunching(_ app: Application) {
        let events = (0..<16).map { "{\"event\":\"screen-view\",\"screen\":\"tab-\($0 % 4)\",\"at\":\(1_700_000_000 + $0 * 37)}" }
        let batches = batches
        Task.detached(priority: .utility) {
            if batches {
                await MetricsApp.post("[" + events.joined(separator: ",") + "]", part: 0)
                return
            }
            for (part, event) in events.enumerated() {
                await MetricsApp.post(event, part: part)
                try? await Task.sleep(for: .seconds(3))
            }
        }
    }

    static func post(_ body: String, part: Int) async {
        var request = URLRequest(url: api("/upload/metrics-\(part)"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        _ = try? await URLSession.shared.upload(for: request, from: Data(body.utf8))
    }
}

/// network.no-server-polling. Live sports scores. Good: loads them at launch and when the user
/// pulls to refresh. Bad: also re-fetches every 15 s from a `Task.sleep` loop.
final class ScoresApp: AppDelegate {
    let polls: Bool
    var scores = Data()
    var poller: Task<Void, Never>?
    init(polls: Bool) { self.polls = polls }

    func didFinishLaunching(_ app: Application) {
        load()
        guard polls else { return }
        poller = Task { @MainActor in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(15))
                self.load()
            }
        }
    }

    func handleInput(_ app: Application, kind: String) { load() }

    func load() {
        Task { @MainActor in
            if let (data, _) = try? await URLSession.shared.data(from: api("/json/2000")) { self.scores = data }
        }
    }
}

/// network.enqueue-together. Uploads the six photos the user picked. Good: all six requests
/// at once in a `TaskGroup`. Bad: `await`s each upload before starting the next.
final class PhotoUploadApp: AppDelegate {
    let together: Bool
    init(together: Bool) { self.together = together }

    func handleInput(_ app: Application, kind: String) {
        let photos = (0..<6).map { _ in incompressible(40 * 1024) }  // JPEG: does not deflate
        let together = together
        Task.detached {
            if together {
                await withTaskGroup(of: Void.self) { group in
                    for (number, photo) in photos.enumerated() { group.addTask { await PhotoUploadApp.upload(photo, number) } }
                }
            } else {
                for (number, photo) in photos.enumerated() { await PhotoUploadApp.upload(photo, number) }
            }
        }
    }

    static func upload(_ photo: Data, _ number: Int) async {
        var request = URLRequest(url: api("/upload/photo-\(number)"))
        request.httpMethod = "POST"
        request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
        _ = try? await URLSession.shared.upload(for: request, from: photo)
    }
}

/// network.compact-transfers. A product catalogue. Good: one request for the page, gzip on the
/// wire (URLSession's default `Accept-Encoding`). Bad: asks for `identity` (no compression) and
/// fetches the same JSON again for each of the 30 items in a row.
final class CatalogApp: AppDelegate {
    let compact: Bool
    var items = 0
    init(compact: Bool) { self.compact = compact }

    func handleInput(_ app: Application, kind: String) {
        let compact = compact
        Task.detached {
            if compact {
                if let (data, _) = try? await URLSession.shared.data(from: api("/json/60000")) { await self.loaded(data.count) }
                return
            }
            for item in 0..<30 {
                var request = URLRequest(url: api("/json/2000?item=\(item)"))
                request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
                if let (data, _) = try? await URLSession.shared.data(for: request) { await self.loaded(data.count) }
            }
        }
    }

    func loaded(_ bytes: Int) { items += 1 }
}

/// network.handle-failures. Sends the notes written offline. Good: retries a failed send with
/// exponential backoff (0.5 s, 1 s, 2 s, ...) until it goes through. Bad: tries once and
/// drops the notes on any error.
final class OutboxApp: AppDelegate {
    let retries: Bool
    var delivered = 0
    init(retries: Bool) { self.retries = retries }

    func handleInput(_ app: Application, kind: String) {
        let retries = retries
        Task { @MainActor in
            var delay = 0.5
            while true {
                var request = URLRequest(url: api("/upload/notes"))
                request.httpMethod = "POST"
                request.timeoutInterval = 3
                let body = Data("{\"notes\":[\"milk\",\"eggs\"]}".utf8)
                if let (_, response) = try? await URLSession.shared.upload(for: request, from: body),
                   (response as? HTTPURLResponse)?.statusCode ?? 500 < 300 {
                    self.delivered += 1
                    return
                }
                guard retries, delay < 16 else { return }
                try? await Task.sleep(for: .seconds(delay))
                delay *= 2
            }
        }
    }
}
