import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FrugalKit
#if canImport(Glibc)
import Glibc
#endif

/// lifecycle.save-state. A draft editor that keeps the draft in a Codable file of its own.
/// Good: saves when the app resigns active (a NotificationCenter observer). Bad: saves only on
/// `willTerminateNotification`, which a suspended app that is killed never gets. It declares its
/// state (`StatePreserving`) so the harness can compare before and after; it never calls
/// FrugalKit's `preserveState`.
final class DraftApp: AppDelegate, StatePreserving {
    struct Draft: Codable { var title = ""; var lines: [String] = [] }
    let savesOnResign: Bool
    var draft = Draft()
    var observers: [NSObjectProtocol] = []
    let file = directory(.documentDirectory).appendingPathComponent("draft.json")
    init(savesOnResign: Bool) { self.savesOnResign = savesOnResign }

    var preservedState: [String: String] {
        var state = ["title": draft.title]
        for (number, line) in draft.lines.enumerated() { state["line\(number)"] = line }
        return state
    }

    func didFinishLaunching(_ app: Application) {
        if let data = try? Data(contentsOf: file), let saved = try? JSONDecoder().decode(Draft.self, from: data) { draft = saved }
        let moment = savesOnResign ? Application.willResignActiveNotification : Application.willTerminateNotification
        observers.append(NotificationCenter.default.addObserver(forName: moment, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { self.save() }
        })
    }

    func handleInput(_ app: Application, kind: String) {
        if draft.title.isEmpty { draft.title = "Shopping" }
        draft.lines.append("item \(draft.lines.count + 1)")
    }

    func save() {
        guard let data = try? JSONEncoder().encode(draft) else { return }
        try? data.write(to: file, options: .atomic)
    }
}

/// lifecycle.save-state, with the store iOS apps use for small state: `UserDefaults.standard`.
/// A reader that remembers the book and page. Good: sets them on `willResignActive` (the
/// delegate method) and never calls `synchronize()`, which Apple calls unnecessary. Bad: sets
/// them only in `willTerminate`, which a suspended app that is killed never gets.
final class ReaderApp: AppDelegate, StatePreserving {
    let savesOnResign: Bool
    var book = ""
    var page = 0
    init(savesOnResign: Bool) { self.savesOnResign = savesOnResign }

    var preservedState: [String: String] { ["book": book, "page": String(page)] }

    func didFinishLaunching(_ app: Application) {
        book = UserDefaults.standard.string(forKey: "book") ?? ""
        page = UserDefaults.standard.integer(forKey: "page")
    }

    func handleInput(_ app: Application, kind: String) {
        if book.isEmpty { book = "Moby-Dick" }
        page += 12
    }

    func willResignActive(_ app: Application) { if savesOnResign { remember() } }
    func willTerminate(_ app: Application) { remember() }

    func remember() {
        UserDefaults.standard.set(book, forKey: "book")
        UserDefaults.standard.set(page, forKey: "page")
    }
}

/// lifecycle.quiesce-when-inactive. A stopwatch redrawing its label 25 times a second.
/// Good: invalidates its `Timer` on willResignActive and makes a new one on didBecomeActive.
/// Bad: the timer runs through a phone call.
final class ClockApp: AppDelegate {
    let stopsWhenInactive: Bool
    var timer: Timer?
    var label = ""
    let started = Date()
    init(stopsWhenInactive: Bool) { self.stopsWhenInactive = stopsWhenInactive }

    func didBecomeActive(_ app: Application) {
        guard timer == nil else { return }
        timer = Timer.scheduledTimer(withTimeInterval: 0.04, repeats: true) { _ in
            MainActor.assumeIsolated { self.label = String(format: "%.2f", Date().timeIntervalSince(self.started)) }
        }
    }

    func willResignActive(_ app: Application) {
        guard stopsWhenInactive else { return }
        timer?.invalidate()
        timer = nil
    }
}

/// lifecycle.end-background-tasks. Uploads a backup when the user asks, under a background task
/// so leaving the app does not cut it off. Good: ends the task when the upload completes and
/// in the expiration handler. Bad: begins it and forgets it.
final class BackupApp: AppDelegate {
    let endsTask: Bool
    var task = BackgroundTaskIdentifier.invalid
    init(endsTask: Bool) { self.endsTask = endsTask }

    func handleInput(_ app: Application, kind: String) {
        task = app.beginBackgroundTask(withName: "backup") {
            if self.endsTask { app.endBackgroundTask(self.task); self.task = .invalid }
        }
        var request = URLRequest(url: api("/upload/backup"))
        request.httpMethod = "POST"
        let body = incompressible(256 * 1024)  // compressed and encrypted, as backups are
        Task { @MainActor in
            _ = try? await URLSession.shared.upload(for: request, from: body)
            if self.endsTask, self.task != .invalid { app.endBackgroundTask(self.task); self.task = .invalid }
        }
    }
}

/// lifecycle.close-listeners. Shares files with nearby devices over a TCP socket on loopback.
/// Good: closes the listening socket on didEnterBackgroundNotification and opens it again on
/// willEnterForegroundNotification. Bad: keeps it open while suspended.
final class ShareApp: AppDelegate {
    let closesOnBackground: Bool
    var listener: Int32 = -1
    var observers: [NSObjectProtocol] = []
    init(closesOnBackground: Bool) { self.closesOnBackground = closesOnBackground }

    func didFinishLaunching(_ app: Application) {
        listen()
        guard closesOnBackground else { return }
        let center = NotificationCenter.default
        observers.append(center.addObserver(forName: Application.didEnterBackgroundNotification, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { self.close() }
        })
        observers.append(center.addObserver(forName: Application.willEnterForegroundNotification, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { self.listen() }
        })
    }

    func listen() {
        guard listener < 0 else { return }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 8) == 0 else { Glibc.close(fd); return }
        listener = fd
    }

    func close() {
        guard listener >= 0 else { return }
        Glibc.close(listener)
        listener = -1
    }
}

/// lifecycle.resume-fast. A calendar that recomputes the recurring events of each of the user's
/// calendars when the clock changes (`significantTimeChangeNotification`, queued while
/// suspended). Good: marks the agenda stale and recomputes on a global queue. Bad: recomputes
/// inside the notification, on the main thread, before the app can show itself.
final class AgendaApp: AppDelegate {
    /// The user's calendars, each in its own time zone (home, work abroad, family, a shared team
    /// calendar, holidays): every one is recomputed, as a calendar app does when the clock changes.
    nonisolated static let calendars = ["Europe/Lisbon", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "Europe/Berlin"]
    let onMain: Bool
    var agenda: [Date] = []
    var observer: NSObjectProtocol?
    init(onMain: Bool) { self.onMain = onMain }

    func didFinishLaunching(_ app: Application) {
        observer = NotificationCenter.default.addObserver(forName: Application.significantTimeChangeNotification, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { self.clockChanged() }
        }
    }

    func clockChanged() {
        if onMain {
            agenda = AgendaApp.calendars.flatMap { AgendaApp.occurrences(in: $0) }
        } else {
            DispatchQueue.global(qos: .utility).async {
                let computed = AgendaApp.calendars.flatMap { AgendaApp.occurrences(in: $0) }
                DispatchQueue.main.async { MainActor.assumeIsolated { self.agenda = computed } }
            }
        }
    }

    /// Every 15-minute slot of six years, through Calendar, filtered to weekday mornings in
    /// `zone`: about 0.14 s of CPU per calendar here (a debug build; measured in the notification
    /// handler's cpuMs), so 0.7 s for the five, whatever else the machine is doing. One calendar
    /// alone (0.14 s) was once the whole of it, and scored 0.66–0.82 on resume-fast: on the line,
    /// not the sluggish return the pair is about.
    nonisolated static func occurrences(in zone: String) -> [Date] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let start = Date()
        var result: [Date] = []
        for slot in 0..<(6 * 365 * 96) {
            let date = calendar.date(byAdding: .minute, value: 15 * slot, to: start)!
            let parts = calendar.dateComponents([.weekday, .hour], from: date)
            if (2...6).contains(parts.weekday!), (8...11).contains(parts.hour!) { result.append(date) }
        }
        return result
    }
}

/// lifecycle.minimal-background-work. A web crawler for offline reading that hashes pages on an
/// `OperationQueue`. Good: suspends the queue on entering the background and resumes it on
/// return. Bad: keeps hashing in the background with no background task.
final class CrawlerApp: AppDelegate {
    let pauses: Bool
    let queue = OperationQueue()
    var observers: [NSObjectProtocol] = []
    init(pauses: Bool) { self.pauses = pauses }

    func didFinishLaunching(_ app: Application) {
        queue.maxConcurrentOperationCount = 1
        for page in 0..<4000 {
            queue.addOperation {
                var hash: UInt64 = 1469598103934665603
                for byte in 0..<200_000 { hash = (hash ^ UInt64(truncatingIfNeeded: byte &+ page)) &* 1099511628211 }
                if hash == 0 { print("never") }
            }
        }
        guard pauses else { return }
        let center = NotificationCenter.default
        observers.append(center.addObserver(forName: Application.didEnterBackgroundNotification, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { self.queue.isSuspended = true }
        })
        observers.append(center.addObserver(forName: Application.willEnterForegroundNotification, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { self.queue.isSuspended = false }
        })
    }
}

/// lifecycle.quiesce-when-inactive, good only. A podcast player downloading an episode (1.5 MB
/// over HTTPS on a 3G link) when a call comes in: the download goes on, as the guide allows
/// ("You can continue processing network requests and other time-sensitive background tasks
/// while inactive"), and nothing else runs. URLSession on Linux wakes libdispatch's manager
/// thread tens of thousands of times a second through such a download (once judged a fail).
final class EpisodeApp: AppDelegate {
    var downloaded = 0

    func handleInput(_ app: Application, kind: String) {
        Task { @MainActor in
            let url = URL(string: "https://api.corpus.test/random/1500000?episode=42")!
            if let (data, _) = try? await URLSession.shared.data(from: url) { self.downloaded = data.count }
        }
    }
}
