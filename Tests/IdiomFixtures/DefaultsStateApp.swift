import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FrugalKit

/// Keeps its small state where iOS apps keep it, in `UserDefaults.standard`, and never calls
/// `synchronize()` (Apple: "unnecessary and shouldn't be used"): the draft and the edit count
/// are set in `willResignActive`, a `synced` flag by a background task that ends after it, and a
/// 4 KiB note in `willTerminate`. At launch it reads them back and marks what it found.
final class DefaultsStateApp: AppDelegate, StatePreserving {
    /// The note `willTerminate` leaves: long enough that the preferences file's size shows it.
    static let quitNote = String(repeating: "q", count: 4096)
    private var draft = ""
    private var edits = 0
    private var defaults: UserDefaults { .standard }

    var preservedState: [String: String] { ["draft": draft, "edits": String(edits)] }

    func didFinishLaunching(_ app: Application) {
        draft = defaults.string(forKey: "draft") ?? ""
        edits = defaults.integer(forKey: "edits")
        app.mark("restored", detail: "edits=\(edits) synced=\(defaults.bool(forKey: "synced"))")
    }

    func handleInput(_ app: Application, kind: String) {
        edits += 1
        draft += "edit \(edits); "
    }

    func willResignActive(_ app: Application) {
        defaults.set(draft, forKey: "draft")
        defaults.set(edits, forKey: "edits")
    }

    func didEnterBackground(_ app: Application) {
        let task = TaskHolder()
        task.id = app.beginBackgroundTask(name: "sync") { [task] in app.endBackgroundTask(task.id) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { [task] in
            UserDefaults.standard.set(true, forKey: "synced")
            app.endBackgroundTask(task.id)
        }
    }

    func willTerminate(_ app: Application) {
        defaults.set(Self.quitNote, forKey: "quit-note")
    }
}

/// A background task's identifier, set after `beginBackgroundTask` returns and read where it ends.
final class TaskHolder: @unchecked Sendable {
    var id = BackgroundTaskIdentifier.invalid
}

/// Refreshes its feed with `URLSession.shared` on each input, as most apps do; its API answers
/// with a load balancer's cookie, which Foundation's cookie store keeps. `done` is marked with
/// the bytes of each response.
final class CookieFeedApp: AppDelegate {
    func handleInput(_ app: Application, kind: String) {
        guard let proxy = ProcessInfo.processInfo.environment["FRUGAL_PROXY"], let url = URL(string: "http://\(proxy)/v1/feed") else { return }
        URLSession.shared.dataTask(with: url) { data, _, error in
            app.mark("done", detail: data.map { String($0.count) } ?? "\(error.map { "\($0)" } ?? "no data")")
        }.resume()
    }
}
