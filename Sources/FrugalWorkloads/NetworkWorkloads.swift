import Foundation
import FrugalKit

extension WorkloadCatalogue {
    static let network: [WorkloadDefinition] = [
        WorkloadDefinition(name: "sync.trickle",
                           summary: "sends each small message as it is made, every 3 s for 45 s (bad: the radio never rests)",
                           defaultScenarios: ["sync"]) { TrickleSyncApp() },
        WorkloadDefinition(name: "sync.burst",
                           summary: "sends the same 16 messages at once (good: one promotion, one tail)",
                           defaultScenarios: ["sync"]) { BurstSyncApp() },
        WorkloadDefinition(name: "feed.polls-server",
                           summary: "refreshes on demand and polls the server every 14 s (bad: a promotion per poll)",
                           defaultScenarios: ["feed"]) { ServerFeedApp(pollInterval: 14) },
        WorkloadDefinition(name: "feed.on-demand",
                           summary: "refreshes only when the user asks (good)",
                           defaultScenarios: ["feed"]) { ServerFeedApp(pollInterval: nil) },
        WorkloadDefinition(name: "upload.sequential",
                           summary: "uploads 6 thumbnails, each after the previous one finished (bad)",
                           defaultScenarios: ["upload"]) { ThumbnailUploadApp(together: false) },
        WorkloadDefinition(name: "upload.batched",
                           summary: "enqueues the same 6 uploads together (good)",
                           defaultScenarios: ["upload"]) { ThumbnailUploadApp(together: true) },
        WorkloadDefinition(name: "api.verbose-json",
                           summary: "loads 40 items one request each, as verbose JSON (bad: chatty, redundant)",
                           defaultScenarios: ["api"]) { VerboseAPIApp() },
        WorkloadDefinition(name: "api.compact",
                           summary: "loads the same items in one request in a packed binary form (good)",
                           defaultScenarios: ["api"]) { CompactAPIApp() },
        WorkloadDefinition(name: "sync.fragile",
                           summary: "uploads notes and gives up on any failure (bad: a reset or an outage loses them)",
                           defaultScenarios: ["flaky"]) { NoteSyncApp(retries: false) },
        WorkloadDefinition(name: "sync.resilient",
                           summary: "uploads the same notes and retries failures with backoff (good)",
                           defaultScenarios: ["flaky"]) { NoteSyncApp(retries: true) },
    ]
}

/// Deterministic bytes that deflate does not shrink (a SplitMix64 stream): message bodies whose
/// size is what it says, so the pairs compare the radio's cost, not the encoding.
enum Payload {
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z) { bytes += $0.prefix(count - bytes.count) }
        }
        return bytes
    }
}

/// A chat-style sync: 16 messages of 600 B, one made every 3 s.
enum SyncMessages {
    static let count = 16
    static let interval = 3.0
    static func request(_ index: Int) -> NetworkRequest {
        .post("/upload/message-\(index)", body: Payload.bytes(600, seed: UInt64(index)))
    }
}

/// Sends each message the moment it is made: the radio never gets to idle.
final class TrickleSyncApp: AppDelegate {
    var client: NetworkClient!
    var sent = 0

    func didFinishLaunching(_ app: Application) {
        client = NetworkClient(app: app)
    }

    func didBecomeActive(_ app: Application) {
        send()
        app.runLoop.scheduleTimer(name: "message", interval: SyncMessages.interval, repeats: true) { [unowned self] timer in
            send()
            if sent >= SyncMessages.count { timer.invalidate() }
        }
    }

    private func send() {
        client.dataTask(with: SyncMessages.request(sent)) { _ in }.resume()
        sent += 1
    }
}

/// Sends the same messages in one burst, enqueued together.
final class BurstSyncApp: AppDelegate {
    var client: NetworkClient!

    func didFinishLaunching(_ app: Application) {
        client = NetworkClient(app: app)
    }

    func didBecomeActive(_ app: Application) {
        for index in 0..<SyncMessages.count {
            client.dataTask(with: SyncMessages.request(index)) { _ in }.resume()
        }
    }
}

/// A news feed: refreshes when the user asks, and (the bad one) polls on a timer besides.
final class ServerFeedApp: AppDelegate {
    let pollInterval: Double?
    var client: NetworkClient!
    var stories = 0
    init(pollInterval: Double?) { self.pollInterval = pollInterval }

    func didFinishLaunching(_ app: Application) {
        client = NetworkClient(app: app)
        if let pollInterval {
            app.runLoop.scheduleTimer(name: "poll", interval: pollInterval, repeats: true) { [unowned self] _ in refresh() }
        }
    }

    func handleInput(_ app: Application, kind: String) {
        refresh()
    }

    private func refresh() {
        client.dataTask(with: .get("/json/2000")) { [unowned self] result in
            if case .success(let response) = result { stories = response.body.count }
        }.resume()
    }
}
