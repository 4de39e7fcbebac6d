import Foundation
import FrugalKit

/// Apps that use the platform's threads once (a global queue, a detached task) and
/// then idle: on Linux, libdispatch's pool monitor wakes its manager thread every second from
/// then on, which Frugal shows as the platform's, not the app's (docs/THREADS.md). Each has a
/// twin with a 1 s timer, which must still fail `power.avoid-polling`. Not in the default suite:
/// they measure the attribution itself, not a guideline of their own. The URLSession pair lives in
/// the test fixtures (Tests/IdiomFixtures): URLSession needs FoundationNetworking, whose libcurl
/// and its two dozen libraries would otherwise load into every built-in workload (+8 MiB of peak
/// resident memory and tens of ms of launch, measured).
extension WorkloadCatalogue {
    static let threads: [WorkloadDefinition] = [
        WorkloadDefinition(name: "threads.serial-queue-timer",
                           summary: "ticks on a 1 s DispatchSource timer on a serial queue, no global queue: no pool monitor, the manager's wakeups are the app's (bad: polling)",
                           defaultScenarios: ["short-idle"], inDefaultSuite: false) { SerialQueueTimerApp() },
        WorkloadDefinition(name: "threads.global-queue-foundation-timer",
                           summary: "runs one job on DispatchQueue.global() once at launch, then ticks on a 1 s Foundation Timer on the main run loop (bad: polling)",
                           defaultScenarios: ["short-idle"], inDefaultSuite: false) { PlatformTouchApp(touch: .globalQueue, timer: .foundation) },
    ] + PlatformTouch.allCases.flatMap { touch in
        [
            WorkloadDefinition(name: "threads.\(touch.rawValue)-once",
                               summary: "\(touch.summary) once at launch, then idles (good: libdispatch's pool monitor is the platform's)",
                               defaultScenarios: ["short-idle"], inDefaultSuite: false) { PlatformTouchApp(touch: touch, timer: .none) },
            WorkloadDefinition(name: "threads.\(touch.rawValue)-timer",
                               summary: "\(touch.summary) once at launch, then ticks on a 1 s \(touch.timer.rawValue) timer (bad: polling)",
                               defaultScenarios: ["short-idle"], inDefaultSuite: false) { PlatformTouchApp(touch: touch, timer: touch.timer) },
        ]
    }
}

/// What the app uses once at launch.
enum PlatformTouch: String, CaseIterable, Sendable {
    case globalQueue = "global-queue"
    case detachedTask = "detached-task"

    var summary: String {
        switch self {
        case .globalQueue: return "runs one job on DispatchQueue.global()"
        case .detachedTask: return "runs one Task.detached"
        }
    }

    /// The twin's timer: FrugalKit's main run loop timer for one, a global-queue dispatch timer
    /// for another (a timer that itself runs on libdispatch's threads), so both kinds are judged.
    var timer: IdleTimer {
        switch self {
        case .globalQueue: return .dispatch
        case .detachedTask: return .runLoop
        }
    }
}

/// A timer the bad twin ticks on while idle.
enum IdleTimer: String, Sendable {
    case none
    /// `RunLoopTimer` on FrugalKit's main run loop.
    case runLoop = "run-loop"
    /// A `DispatchSource` timer on a global queue.
    case dispatch = "global-queue DispatchSource"
    /// Foundation's `Timer.scheduledTimer` on the main run loop (`RunLoop.main`, which
    /// FrugalKit's main loop services).
    case foundation = "Foundation"
}

final class PlatformTouchApp: AppDelegate {
    let touch: PlatformTouch
    let timer: IdleTimer
    private var dispatchTimer: DispatchSourceTimer?

    init(touch: PlatformTouch, timer: IdleTimer) {
        self.touch = touch
        self.timer = timer
    }

    func didFinishLaunching(_ app: Application) {
        switch touch {
        case .globalQueue:
            DispatchQueue.global().async { _ = (0..<10_000).reduce(0, &+) }
        case .detachedTask:
            Task.detached { _ = (0..<10_000).reduce(0, &+) }
        }
        switch timer {
        case .none:
            break
        case .runLoop:
            app.runLoop.scheduleTimer(name: "tick", interval: 1, repeats: true, tolerance: 0) { _ in }
        case .foundation:
            _ = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in }
        case .dispatch:
            let source = DispatchSource.makeTimerSource(queue: .global())
            source.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(1))
            source.setEventHandler { _ = (0..<100).reduce(0, &+) }
            source.resume()
            dispatchTimer = source
        }
    }
}

/// A dispatch timer on a serial queue and nothing else: serial queues run on the overcommit
/// pools, which libdispatch does not monitor, so the manager thread wakes only for this timer.
final class SerialQueueTimerApp: AppDelegate {
    private let queue = DispatchQueue(label: "threads.ticker")
    private var timer: DispatchSourceTimer?

    func didFinishLaunching(_ app: Application) {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(1))
        source.setEventHandler { _ = (0..<100).reduce(0, &+) }
        source.resume()
        timer = source
    }
}
