import Foundation
import Synchronization
import FrugalCore
import FrugalKit
import FrugalProbe

/// Drives an app's delegate through the app's life inside a unit test: no harness, no child
/// process, no pipes. The delegate runs on a real FrugalKit ``Application`` (its main run loop,
/// timers, `DispatchQueue.main`, the main actor, background tasks, notifications and memory
/// warnings are FrugalKit's own code), and what the app says — state changes, measured handlers,
/// background tasks, marks, file writes — is kept in ``events`` instead of going to a harness.
///
/// Each transition is delivered as the harness delivers it (the same control message, through
/// the same routing), so a delegate that passes here behaves the same under `frugal run`. What
/// only a real run can judge (wakeups, the wire, disk bytes, memory seen from outside) is not
/// here: this is for the delegate's logic, the run is for its cost.
///
/// ```swift
/// func testEndsItsUploadTaskInTheBackground() throws { try MainActor.assumeIsolated {
///     let driver = try LifecycleDriver(delegate: UploaderDelegate())
///     driver.launch()
///     driver.enterBackground()
///     XCTAssertTrue(driver.runLoop(until: { driver.application.openBackgroundTasks.isEmpty }, timeout: 5))
///     XCTAssertEqual(driver.events.backgroundTasks.map(\.phase), [.begun, .ended])
/// } }
/// ```
///
/// Call it on the main thread (in an XCTest method, `MainActor.assumeIsolated`: on Linux a test
/// method cannot itself be `@MainActor`): the app's run loop drains the main queue there. One driver at a time is the process's ``Application/current``.
@MainActor
public final class LifecycleDriver {
    /// The app the delegate runs in: its ``Application/state``, run loop and background tasks.
    public let application: Application
    /// Kept alive for as long as the driver: the app holds its delegate as UIKit does.
    public let delegate: AppDelegate
    private let box: RecordedBox
    private var sequence = 0

    /// A driver for `delegate`, as the app `name`; nothing has happened yet (call ``launch()``).
    /// Throws when the run loop cannot be made (its epoll and eventfd descriptors).
    public init(name: String = "app-under-test", delegate: AppDelegate) throws {
        let box = RecordedBox()
        self.box = box
        self.delegate = delegate
        // rusage, not PAPI: a unit test needs the handlers' spans, not per-handler hardware counters.
        application = try Application(name: name, delegate: delegate,
                                      emitter: EventEmitter(recording: { event in box.append(event) }), preferPAPI: false)
        Application.makeCurrent(application)
    }

    /// Everything the app said so far, in order.
    public var events: RecordedEvents { RecordedEvents(box.snapshot()) }

    /// The app's state now.
    public var state: AppState { application.state }

    /// Launches: `didFinishLaunching`, then `didBecomeActive` (with their notifications).
    public func launch() { application.start() }

    /// An interruption begins: `willResignActive` (active → inactive).
    public func resignActive() { send(.resignActive) }
    /// The interruption ends: `didBecomeActive` (inactive → active).
    public func becomeActive() { send(.becomeActive) }
    /// To the background: `willResignActive` if active, then `didEnterBackground`; the app's freed
    /// memory goes back to the system afterwards, as under the harness.
    public func enterBackground() { send(.enterBackground) }
    /// Back to the foreground: `willEnterForeground`, the notifications queued in the background,
    /// then `didBecomeActive`.
    public func enterForeground() { send(.enterForeground) }
    /// Background time is nearly over: each open background task's expiration handler.
    public func expireBackgroundTasks() { send(.expireBackgroundTasks) }
    /// A system notification (`significant-time-change`, ...): delivered now, or queued while in the background.
    public func receiveNotification(_ name: String) { send(.notification, name) }
    /// An input event of `kind` (a tap, a button): the delegate's `handleInput`.
    public func input(_ kind: String = "input") { send(.input, kind) }
    /// A memory warning at `level`: `Cache`s evict, the notifications are posted, then the delegate is told.
    public func memoryWarning(_ level: MemoryWarningLevel = .warning) { send(.memoryWarning, level.rawValue) }
    /// The app ends: `willTerminate` (→ not running).
    public func terminate() { send(.terminate) }

    /// Runs the app's main run loop for `seconds` of real time: its timers, `DispatchQueue.main`
    /// blocks, main-actor tasks and `RunLoop.main` work run as they would in the app.
    public func runLoop(for seconds: Double) throws {
        try application.runLoop.run(until: MonotonicClock.now() + UInt64(max(0, seconds) * 1e9))
    }

    /// Runs the main run loop until `condition` holds (checked every 10 ms) or `timeout` seconds
    /// have passed; true when the condition held. For work the app finishes on other threads and
    /// hands back to the main thread (an upload, then `endBackgroundTask`).
    @discardableResult
    public func runLoop(until condition: () -> Bool, timeout: Double) -> Bool {
        let deadline = MonotonicClock.now() + UInt64(max(0, timeout) * 1e9)
        while !condition() {
            let now = MonotonicClock.now()
            guard now < deadline else { return false }
            // The loop fails only when epoll_wait does: nothing more will run, so the condition
            // is checked once more and the wait ends.
            guard (try? application.runLoop.run(until: min(deadline, now + 10_000_000))) != nil else { return condition() }
        }
        return true
    }

    private func send(_ command: ControlCommand, _ argument: String? = nil) {
        sequence += 1
        application.handle(ControlMessage(sequence: sequence, command: command, argument: argument))
    }
}

/// The recorded events, appended from any thread the app emits on (FrugalKit's services emit
/// from theirs). A class, so the emitter's closure and the driver share one list.
final class RecordedBox: Sendable {
    private let events = Mutex<[WorkloadEvent]>([])
    func append(_ event: WorkloadEvent) { events.withLock { $0.append(event) } }
    func snapshot() -> [WorkloadEvent] { events.withLock { $0 } }
}
