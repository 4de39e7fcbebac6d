import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FrugalKit

/// power.avoid-polling. An inbox that shows messages a sync daemon drops in a folder.
/// Good: reads the folder at launch and when the user pulls to refresh; a 15-minute `Timer` as a
/// fallback. Bad: a `DispatchSourceTimer` on a global queue checks the folder's modification
/// date twice a second.
final class InboxApp: AppDelegate {
    let polls: Bool
    var lastSeen = Date.distantPast
    var fallback: Timer?
    var watcher: DispatchSourceTimer?
    init(polls: Bool) { self.polls = polls }

    func didFinishLaunching(_ app: Application) {
        let folder = directory(.applicationSupportDirectory).appendingPathComponent("inbox")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        reload(folder)
        if polls {
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
            timer.setEventHandler {
                let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate]) as? Date
                if let modified, modified > Date.distantPast.addingTimeInterval(1) {
                    DispatchQueue.main.async { MainActor.assumeIsolated { self.lastSeen = modified } }
                }
            }
            timer.resume()
            watcher = timer
        } else {
            fallback = Timer.scheduledTimer(withTimeInterval: 15 * 60, repeats: true) { _ in
                MainActor.assumeIsolated { self.reload(folder) }
            }
        }
    }

    func handleInput(_ app: Application, kind: String) {
        reload(directory(.applicationSupportDirectory).appendingPathComponent("inbox"))
    }

    func reload(_ folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        lastSeen = Date()
        _ = names.sorted()
    }
}

/// power.avoid-polling. A contacts list filtered as the user types, in memory. Good: filters
/// 0.5 s after the typing stops (a `Task` sleeping, cancelled and made again at each keystroke,
/// whose cancelled sleeps' timers still fire once each, then nothing until the next keystroke).
/// Bad: a 0.5 s repeating `Timer` checks whether the query changed since it last filtered.
final class LookupApp: AppDelegate {
    let checksQuery: Bool
    let names = (0..<5000).map { "Contact \($0)" }
    var query = ""
    var filteredFor: String?
    var shown: [String] = []
    var pending: Task<Void, Never>?
    var checker: Timer?
    init(checksQuery: Bool) { self.checksQuery = checksQuery }

    func didFinishLaunching(_ app: Application) {
        guard checksQuery else { return }
        checker = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: true) { _ in
            MainActor.assumeIsolated { if self.filteredFor != self.query { self.filter() } }
        }
    }

    func handleInput(_ app: Application, kind: String) {
        query += "1"
        guard !checksQuery else { return }
        pending?.cancel()
        pending = Task {
            do { try await Task.sleep(for: .milliseconds(500)) } catch { return }
            self.filter()
        }
    }

    func filter() {
        filteredFor = query
        shown = names.filter { $0.contains(query) }
    }
}
