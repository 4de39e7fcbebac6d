import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FrugalKit

// The apps the idiom-matrix tests run (FrugalHarnessTests/MainThreadIdiomTests.swift and
// FoundationOnLinuxRunTests.swift, among others): written
// the way iOS app code is, with `import FrugalKit` alone. A test-only executable rather than
// built-in workloads: URLSession needs FoundationNetworking (libcurl), which the workload host
// must not load into every built-in workload's footprint.

@main
struct IdiomFixtures: FrugalApp {
    static let apps = [
        AppEntry("idioms") { IdiomApp() },
        AppEntry("notification-model") { NotificationModelApp() },
        AppEntry("lifecycle-observer") { LifecycleObserverApp() },
        AppEntry("dictionary-cache.frees") { DictionaryCacheApp(frees: true) },
        AppEntry("dictionary-cache.keeps") { DictionaryCacheApp(frees: false) },
        AppEntry("threads.urlsession-once") { URLSessionOnceApp(ticks: false) },
        AppEntry("threads.urlsession-timer") { URLSessionOnceApp(ticks: true) },
        AppEntry("clock.foundation-timer") { FoundationClockApp() },
        AppEntry("outbox.urlsession-retries") { URLSessionOutboxApp(retries: true) },
        AppEntry("outbox.urlsession-gives-up") { URLSessionOutboxApp(retries: false) },
        AppEntry("defaults-state") { DefaultsStateApp() },
        AppEntry("bundle-reader") { BundleReaderApp() },
        AppEntry("cookie-feed") { CookieFeedApp() },
    ]
}

/// Waits on the main thread until an absolute deadline: late only by scheduling.
enum Blocker {
    @inline(never)
    static func wait(milliseconds: Int) {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let total = Int(deadline.tv_nsec) + milliseconds * 1_000_000
        deadline.tv_sec += total / 1_000_000_000
        deadline.tv_nsec = total % 1_000_000_000
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }
}

/// Runs one idiom per input: the input's kind names it. Each idiom's block checks that it runs on
/// the main queue and the main actor, waits 300 ms (a main-thread block the report must show as
/// one 300 ms handler), and marks `idiom` with the idiom's name at its end.
final class IdiomApp: AppDelegate {
    private var queueOnTerminate = false
    /// The idioms, by the input kind that starts each.
    static let idioms = ["main.async", "main.asyncAfter", "main.sync-from-background", "operation-queue.main",
                         "runloop.perform", "timer.scheduled", "runloop.add-timer", "dispatch-source.main",
                         "urlsession.delegate-queue-main", "task.main-actor", "task.from-delegate", "main-actor.run",
                         "task.sleep", "async-stream", "notification.queue-main"]
    private var keep: [Any] = []
    private var session: URLSession?

    /// The idiom's work: on the main queue and actor, 300 ms, then the mark.
    private func ran(_ idiom: String, _ app: Application) {
        dispatchPrecondition(condition: .onQueue(.main))
        MainActor.assumeIsolated {}
        Blocker.wait(milliseconds: 300)
        app.mark("idiom", detail: idiom)
    }

    func didFinishLaunching(_ app: Application) {
        // OperationQueue's first operation sets up its machinery on the main thread (10-20 ms,
        // measured): done at launch, so the idiom's handler holds its block and little else.
        OperationQueue.main.addOperation {}
    }

    func handleInput(_ app: Application, kind: String) {
        switch kind {
        case "main.async":
            DispatchQueue.main.async { self.ran(kind, app) }
        case "main.asyncAfter":
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { self.ran(kind, app) }
        case "main.sync-from-background":
            DispatchQueue.global().async {
                DispatchQueue.main.sync { MainActor.assumeIsolated { self.ran(kind, app) } }
            }
        case "operation-queue.main":
            OperationQueue.main.addOperation { MainActor.assumeIsolated { self.ran(kind, app) } }
        case "runloop.perform":
            RunLoop.main.perform { MainActor.assumeIsolated { self.ran(kind, app) } }
        case "timer.scheduled":
            _ = Timer.scheduledTimer(withTimeInterval: 0.05, repeats: false) { _ in MainActor.assumeIsolated { self.ran(kind, app) } }
        case "runloop.add-timer":
            let timer = Timer(timeInterval: 0.05, repeats: false) { _ in MainActor.assumeIsolated { self.ran(kind, app) } }
            timer.tolerance = 0.01
            RunLoop.main.add(timer, forMode: .common)
        case "dispatch-source.main":
            let source = DispatchSource.makeTimerSource(queue: .main)
            source.schedule(deadline: .now() + 0.05)
            source.setEventHandler {
                source.cancel()
                MainActor.assumeIsolated { self.ran(kind, app) }
            }
            source.resume()
            keep.append(source)
        case "urlsession.delegate-queue-main":
            // A data: URL needs no server and no proxy: what is tested is the delivery on .main.
            let session = URLSession(configuration: .ephemeral, delegate: nil, delegateQueue: .main)
            self.session = session
            session.dataTask(with: URL(string: "data:text/plain;base64,aGVsbG8=")!) { data, _, _ in
                MainActor.assumeIsolated {
                    precondition(data == Data("hello".utf8), "the data: URL's body")
                    self.ran(kind, app)
                }
            }.resume()
        case "task.main-actor":
            Task { @MainActor in self.ran(kind, app) }
        case "task.from-delegate":
            Task { self.ran(kind, app) }
        case "main-actor.run":
            Task.detached {
                await MainActor.run { self.ran(kind, app) }
            }
        case "task.sleep":
            Task { @MainActor in
                try await Task.sleep(for: .milliseconds(50))
                self.ran(kind, app)
            }
        case "async-stream":
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            Task { @MainActor in
                for await _ in stream { self.ran(kind, app) }
            }
            Thread.detachNewThread {
                continuation.yield(1)
                continuation.finish()
            }
        case "notification.queue-main":
            let name = Notification.Name("IdiomAppDidSomething")
            let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
                MainActor.assumeIsolated { self.ran(kind, app) }
            }
            keep.append(token)
            DispatchQueue.global().async { NotificationCenter.default.post(name: name, object: nil) }
        case "never-runs":
            queueOnTerminate = true
        case "directories":
            // Where Foundation puts an app's files on Linux: all inside the run's sandbox.
            let manager = FileManager.default
            app.mark("directory", detail: "tmp=" + NSTemporaryDirectory())
            app.mark("directory", detail: "home=" + NSHomeDirectory())
            app.mark("directory", detail: "caches=" + (manager.urls(for: .cachesDirectory, in: .userDomainMask).first?.path ?? "none"))
            app.mark("directory", detail: "documents=" + (manager.urls(for: .documentDirectory, in: .userDomainMask).first?.path ?? "none"))
            app.mark("directory", detail: "sandbox-caches=" + Sandbox.current.caches.path)
        default:
            break
        }
    }

    func willTerminate(_ app: Application) {
        // Queued on the main queue as the app ends: work that can never run, a finding.
        if queueOnTerminate { DispatchQueue.main.async { app.mark("idiom", detail: "never-runs") } }
    }
}

/// A model layer that never sees the delegate: it observes `NotificationCenter` alone, as model
/// code shared with an iOS target does. It saves its drafts when the app enters the background
/// and empties its thumbnail cache on a memory warning.
@MainActor
final class DraftModel {
    private(set) var drafts: [String: String]
    /// Opted out of FrugalKit's own eviction: only the model's observer frees it.
    let thumbnails = Cache<Int, [UInt8]>(name: "thumbnails", evictsOnMemoryWarning: false)
    private var observers: [NSObjectProtocol] = []

    init(app: Application) {
        drafts = app.restoredState() ?? [:]
        let center = NotificationCenter.default
        // queue nil: the observer runs where the notification is posted, the main thread.
        observers.append(center.addObserver(forName: Application.didEnterBackgroundNotification, object: nil, queue: nil) { [unowned self] _ in
            MainActor.assumeIsolated { self.save(app) }
        })
        observers.append(center.addObserver(forName: Application.didReceiveMemoryWarningNotification, object: nil, queue: nil) { [unowned self] _ in
            MainActor.assumeIsolated { self.thumbnails.removeAllObjects() }
        })
    }

    func edit() { drafts["draft-\(drafts.count + 1)"] = "text \(drafts.count + 1)" }

    /// Decodes 32 MiB of thumbnails (8 × 4 MiB, each touched so it is resident).
    func loadThumbnails() {
        for index in 0..<8 { thumbnails.setObject([UInt8](repeating: UInt8(index + 1), count: 4 << 20), forKey: index, cost: 4 << 20) }
    }

    private func save(_ app: Application) {
        do { try app.preserveState(drafts) } catch { app.mark("draft-save-failed", detail: "\(error)") }
    }
}

/// The app whose model observes notifications: the delegate only builds the model and routes
/// input (it reports the model's state so the harness can compare it after a relaunch).
final class NotificationModelApp: AppDelegate, StatePreserving {
    private var model: DraftModel?

    var preservedState: [String: String] { model?.drafts ?? [:] }

    func didFinishLaunching(_ app: Application) { model = DraftModel(app: app) }

    func handleInput(_ app: Application, kind: String) {
        switch kind {
        case "edit": model?.edit()
        case "thumbnails": model?.loadThumbnails()
        default: break
        }
    }
}

/// Marks every delegate call and every lifecycle notification, in the order they come, so a test
/// can hold FrugalKit to UIKit's names and order. Its types come from `import FrugalKit` alone
/// (`MemoryWarningLevel` included).
final class LifecycleObserverApp: AppDelegate {
    private var observers: [NSObjectProtocol] = []
    static let names: [Notification.Name] = [
        Application.didFinishLaunchingNotification, Application.didBecomeActiveNotification,
        Application.willResignActiveNotification, Application.didEnterBackgroundNotification,
        Application.willEnterForegroundNotification, Application.willTerminateNotification,
        Application.didReceiveMemoryWarningNotification, Application.significantTimeChangeNotification,
    ]

    init() {
        for name in Self.names {
            observers.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { notification in
                let level = (notification.userInfo?[Application.memoryWarningLevelKey] as? MemoryWarningLevel).map { ":\($0.rawValue)" } ?? ""
                let detail = "notification \(notification.name.rawValue)\(level)"
                MainActor.assumeIsolated {
                    dispatchPrecondition(condition: .onQueue(.main))
                    Application.current?.mark("lifecycle", detail: detail)
                }
            })
        }
    }

    private func delegate(_ app: Application, _ method: String) {
        MainActor.assumeIsolated { dispatchPrecondition(condition: .onQueue(.main)) }
        app.mark("lifecycle", detail: "delegate \(method)")
    }

    func didFinishLaunching(_ app: Application) { delegate(app, "didFinishLaunching") }
    func didBecomeActive(_ app: Application) { delegate(app, "didBecomeActive") }
    func willResignActive(_ app: Application) { delegate(app, "willResignActive") }
    func didEnterBackground(_ app: Application) { delegate(app, "didEnterBackground") }
    func willEnterForeground(_ app: Application) { delegate(app, "willEnterForeground") }
    func willTerminate(_ app: Application) { delegate(app, "willTerminate") }
    func didReceiveNotification(_ app: Application, name: String) { delegate(app, "didReceiveNotification \(name)") }
    func didReceiveMemoryWarning(_ app: Application, level: MemoryWarningLevel) { delegate(app, "didReceiveMemoryWarning \(level.rawValue)") }
}


/// An image cache in a plain dictionary, as app code keeps one without FrugalKit's `Cache`: 80 MiB
/// in 20,480 entries of 4 KiB (small allocations, kept in glibc's arenas when freed). One variant
/// empties it in `didEnterBackground` and on a memory warning, the other keeps it.
final class DictionaryCacheApp: AppDelegate {
    private let frees: Bool
    private var images: [Int: [UInt8]] = [:]

    init(frees: Bool) { self.frees = frees }

    func didFinishLaunching(_ app: Application) {}

    func handleInput(_ app: Application, kind: String) {
        for index in 0..<20_480 {
            // Every byte written, so the pages are resident, not just reserved.
            images[index] = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 4096)
        }
    }

    func didEnterBackground(_ app: Application) {
        if frees { images.removeAll() }
    }

    func didReceiveMemoryWarning(_ app: Application, level: MemoryWarningLevel) {
        if frees { images.removeAll() }
    }
}

/// Fetches 1 KiB with `URLSession.shared` through `http://$FRUGAL_PROXY` once at launch, then idles
/// (good: libdispatch's pool monitor, started by URLSession's queues, is the platform's) or ticks
/// on a 1 s global-queue `DispatchSource` timer (bad: polling). The URLSession twin of the
/// built-in `threads.*` workloads, here because the workload host must not load FoundationNetworking.
final class URLSessionOnceApp: AppDelegate {
    private let ticks: Bool
    private var timer: DispatchSourceTimer?

    init(ticks: Bool) { self.ticks = ticks }

    func didFinishLaunching(_ app: Application) {
        if let proxy = ProcessInfo.processInfo.environment["FRUGAL_PROXY"], let url = URL(string: "http://\(proxy)/bytes/1024") {
            URLSession.shared.dataTask(with: url) { _, _, _ in }.resume()
        }
        guard ticks else { return }
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(1))
        source.setEventHandler { _ = (0..<100).reduce(0, &+) }
        source.resume()
        timer = source
    }
}
/// A stopwatch redrawing its label 25 times a second from a Foundation `Timer` on the main run
/// loop while active, invalidated on willResignActive and made again on didBecomeActive: drawing,
/// not polling, with no FrugalKit frame timer to say so (`RunAnalysis+Drawing`).
final class FoundationClockApp: AppDelegate {
    private var timer: Timer?
    private var label = ""
    private let started = Date()

    func didBecomeActive(_ app: Application) {
        guard timer == nil else { return }
        timer = Timer.scheduledTimer(withTimeInterval: 0.04, repeats: true) { [unowned self] _ in
            MainActor.assumeIsolated { self.label = String(format: "%.2f", Date().timeIntervalSince(self.started)) }
        }
    }

    func willResignActive(_ app: Application) {
        timer?.invalidate()
        timer = nil
    }
}

/// Sends an outbox with `URLSession` on each `sync` input through `http://$FRUGAL_PROXY`: retrying
/// a failed send with backoff (0.5 s, 1 s, 2 s, 4 s) until it goes through, or trying once.
/// network.handle-failures must judge it from the wire: it reports nothing to FrugalKit.
final class URLSessionOutboxApp: AppDelegate {
    private let retries: Bool
    init(retries: Bool) { self.retries = retries }

    func handleInput(_ app: Application, kind: String) {
        guard let proxy = ProcessInfo.processInfo.environment["FRUGAL_PROXY"], let url = URL(string: "http://\(proxy)/upload/outbox") else { return }
        let retries = retries
        Task { @MainActor in
            var delay = 0.5
            while true {
                var request = URLRequest(url: url)
                request.httpMethod = "POST"
                request.timeoutInterval = 3
                if let (_, response) = try? await URLSession.shared.upload(for: request, from: Data("{\"notes\":[\"milk\"]}".utf8)),
                   (response as? HTTPURLResponse)?.statusCode ?? 500 < 300 {
                    return
                }
                guard retries, delay < 8 else { return }
                try? await Task.sleep(for: .seconds(delay))
                delay *= 2
            }
        }
    }
}
