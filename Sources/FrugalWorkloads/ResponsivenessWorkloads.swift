import Foundation
import FrugalKit
#if canImport(Glibc)
import Glibc
#endif

extension WorkloadCatalogue {
    static let responsiveness: [WorkloadDefinition] = [
        WorkloadDefinition(name: "feed.sync-on-main",
                           summary: "fetches its feed from a slow server (150 ms) on the main thread (bad: main.no-waiting-on-main)",
                           defaultScenarios: ["refresh"]) { MainThreadFeedApp(fetchesOnMainThread: true) },
        WorkloadDefinition(name: "feed.async",
                           summary: "fetches the same feed on a background queue and hands the result to the main thread (good)",
                           defaultScenarios: ["refresh"]) { MainThreadFeedApp(fetchesOnMainThread: false) },
    ]

    static let responsivenessFixtures: [WorkloadDefinition] = [
        WorkloadDefinition(name: "fixture.main-hang",
                           summary: "test fixture: every input blocks the main thread for 400 ms in MainThreadBlocker.blockMainThread",
                           defaultScenarios: ["standard"], inDefaultSuite: false) { HangingApp() },
        WorkloadDefinition(name: "fixture.background-hang",
                           summary: "test fixture: didEnterBackground and willTerminate block for 7 s, past the 5 s watchdogs",
                           defaultScenarios: ["suspend-resume"], inDefaultSuite: false) { BackgroundHangApp() },
    ]
}

/// A news feed fetched from a server that takes 150 ms to answer, over a real loopback socket.
final class MainThreadFeedApp: AppDelegate {
    let fetchesOnMainThread: Bool
    var stories: [UInt8] = []
    private let queue = DispatchQueue(label: "feed.fetch")
    init(fetchesOnMainThread: Bool) { self.fetchesOnMainThread = fetchesOnMainThread }

    func handleInput(_ app: Application, kind: String) {
        guard kind == "refresh" else { return }
        if fetchesOnMainThread {
            stories = (try? fetch()) ?? stories
        } else {
            queue.async { [unowned self] in
                let fetched = try? self.fetch()
                app.runLoop.perform("feed-loaded") { self.stories = fetched ?? self.stories }
            }
        }
    }

    private nonisolated func fetch() throws -> [UInt8] {
        try BlockingCalls.measure("network.request", detail: "GET /feed from a server that takes 150 ms") {
            try SlowLoopbackServer.request(latency: 0.150, responseBytes: 4096, payload: Array("GET /feed".utf8))
        }
    }
}

/// Blocks the main thread on every input: the hang test's fixture.
final class HangingApp: AppDelegate {
    func handleInput(_ app: Application, kind: String) {
        MainThreadBlocker.blockMainThread(milliseconds: 400)
    }
}

/// Blocks in didEnterBackground and in willTerminate past the watchdogs: the fixture of the
/// background and terminate watchdogs' real-process tests.
final class BackgroundHangApp: AppDelegate {
    func didEnterBackground(_ app: Application) {
        MainThreadBlocker.blockMainThread(milliseconds: 7000)
    }

    func willTerminate(_ app: Application) {
        MainThreadBlocker.blockMainThread(milliseconds: 7000)
    }
}

/// Sleeps the calling thread until a deadline, restarting after signals (the hang probe's included).
enum MainThreadBlocker {
    @inline(never)
    static func blockMainThread(milliseconds: Int) {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let total = Int(deadline.tv_nsec) + milliseconds * 1_000_000
        deadline.tv_sec += total / 1_000_000_000
        deadline.tv_nsec = total % 1_000_000_000
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }
}
