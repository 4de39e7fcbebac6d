import Foundation
import FrugalKit

extension WorkloadCatalogue {
    static let power: [WorkloadDefinition] = [
        WorkloadDefinition(name: "news.polling",
                           summary: "checks a feed for new stories every second with a zero-tolerance timer (bad: polling)",
                           defaultScenarios: ["standard"]) { PollingNewsApp() },
        WorkloadDefinition(name: "news.coalesced",
                           summary: "checks the same feed on demand and on one 5-minute timer with 60 s tolerance (good)",
                           defaultScenarios: ["standard"]) { CoalescedNewsApp() },
    ]
}

/// A feed that rarely has news: a directory the app looks into for story files.
final class NewsFeed {
    let inbox: String
    /// The thread that does the checking, off the main thread, as a real app would.
    private let queue = DispatchQueue(label: "news.feed")

    init() {
        inbox = NSTemporaryDirectory() + "frugal-news-\(getpid())"
        try? FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
    }

    /// Looks for stories off the main thread and reports the count back on the main run loop.
    func check(app: Application, completion: @escaping @MainActor @Sendable (Int) -> Void) {
        queue.async { [inbox] in
            let count = (try? FileManager.default.contentsOfDirectory(atPath: inbox).count) ?? 0
            app.runLoop.perform("feed-checked") { completion(count) }
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: inbox) }
}

/// Polls: a 1 s repeating timer with no tolerance asks the feed whether anything is new.
final class PollingNewsApp: AppDelegate {
    let feed = NewsFeed()
    var stories = 0

    func didFinishLaunching(_ app: Application) {
        app.runLoop.scheduleTimer(name: "poll", interval: 1, repeats: true, tolerance: 0) { [unowned self] _ in
            self.feed.check(app: app) { self.stories = $0 }
        }
    }

    func handleInput(_ app: Application, kind: String) {
        feed.check(app: app) { [unowned self] in self.stories = $0 }
    }
}

/// Checks when the user asks, plus a long-interval timer with generous tolerance as a backstop.
final class CoalescedNewsApp: AppDelegate {
    let feed = NewsFeed()
    var stories = 0
    /// Checks per input: 1. `FRUGAL_NEWS_CHECKS_PER_INPUT=10` makes it check ten times as often,
    /// the extra checks 40 ms apart: a deliberate regression that `scripts/regression-demo.sh`
    /// uses to show `frugal compare` catching one.
    let checksPerInput = max(1, Int(ProcessInfo.processInfo.environment["FRUGAL_NEWS_CHECKS_PER_INPUT"] ?? "") ?? 1)

    func didFinishLaunching(_ app: Application) {
        app.runLoop.scheduleTimer(name: "refresh", interval: 300, repeats: true, tolerance: 60) { [unowned self] _ in
            self.feed.check(app: app) { self.stories = $0 }
        }
    }

    func handleInput(_ app: Application, kind: String) {
        feed.check(app: app) { [unowned self] in self.stories = $0 }
        for extra in 1..<checksPerInput {
            app.runLoop.scheduleTimer(name: "recheck", interval: 0.04 * Double(extra), repeats: false, tolerance: 0) { [unowned self] _ in
                self.feed.check(app: app) { self.stories = $0 }
            }
        }
    }
}
