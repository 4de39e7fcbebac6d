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
