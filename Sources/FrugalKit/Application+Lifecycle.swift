import Foundation
import Synchronization
import FrugalProtocol
import FrugalSystem

/// Identifies a background task, as `UIBackgroundTaskIdentifier`.
public struct BackgroundTaskIdentifier: Hashable, Sendable {
    /// The task's number, unique in the process; 0 is `invalid`.
    public let rawValue: Int
    /// Returned when no task could be begun (the app is not running).
    public static let invalid = BackgroundTaskIdentifier(rawValue: 0)
}

/// The lifecycle's mutable parts. Background tasks may be begun and ended from any thread.
final class LifecycleRuntime: Sendable {
    struct OpenTask {
        var name: String
        var expiration: (@MainActor @Sendable () -> Void)?
    }

    struct State {
        var openTasks: [Int: OpenTask] = [:]
        var nextTaskID = 1
        /// Notifications that arrived in the background, one per name (the system coalesces them), in order.
        var queuedNotifications: [String] = []
        /// Between `didEnterBackground` and `willEnterForeground`: when the harness may suspend
        /// the app once no task is open (``Application/persistStandardDefaults()``).
        var inBackground = false
    }

    let state = Mutex(State())
}

/// The app's transitions between the guide's states (Table 3-1), driven by the harness.
extension Application {
    /// Asks for background time to finish `name` (as `beginBackgroundTask(withName:expirationHandler:)`).
    /// Every call must be balanced by `endBackgroundTask`. When the background time runs low,
    /// `expiration` is called on the main thread; end the task there. A task still open when the
    /// time is over gets the app killed. Safe from any thread.
    public nonisolated func beginBackgroundTask(name: String, expiration: (@MainActor @Sendable () -> Void)? = nil) -> BackgroundTaskIdentifier {
        let id = lifecycle.state.withLock { state -> Int in
            let id = state.nextTaskID
            state.nextTaskID += 1
            state.openTasks[id] = LifecycleRuntime.OpenTask(name: name, expiration: expiration)
            return id
        }
        emitter.emit(.backgroundTask(BackgroundTaskEvent(id: id, name: name, phase: .begun)))
        return BackgroundTaskIdentifier(rawValue: id)
    }

    /// Ends a background task; once none is open, the app may be suspended. Safe from any thread.
    public nonisolated func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        let (task, mayBeSuspended) = lifecycle.state.withLock { state in
            (state.openTasks.removeValue(forKey: identifier.rawValue), state.inBackground && state.openTasks.isEmpty)
        }
        guard let task else { return }
        // The harness may suspend the app as soon as it reads that the last task ended.
        if mayBeSuspended { Self.persistStandardDefaults() }
        emitter.emit(.backgroundTask(BackgroundTaskEvent(id: identifier.rawValue, name: task.name, phase: .ended)))
    }

    /// The names of the background tasks still open.
    public nonisolated var openBackgroundTasks: [String] {
        lifecycle.state.withLock { $0.openTasks.sorted { $0.key < $1.key }.map(\.value.name) }
    }

    func resignActive() {
        guard state == .active else { return }
        runLoop.meter.measure("willResignActive") {
            delegate.willResignActive(self)
            postLifecycle(Self.willResignActiveNotification)
        }
        transition(to: .inactive)
    }

    func becomeActive() {
        guard state == .inactive else { return }
        transition(to: .active)
        runLoop.meter.measure("didBecomeActive") {
            delegate.didBecomeActive(self)
            postLifecycle(Self.didBecomeActiveNotification)
        }
    }

    func enterBackground() {
        resignActive()
        guard state == .inactive else { return }
        transition(to: .background)
        lifecycle.state.withLock { $0.inBackground = true }
        runLoop.meter.measure("didEnterBackground") {
            delegate.didEnterBackground(self)
            postLifecycle(Self.didEnterBackgroundNotification)
        }
        // Before the acknowledgement, after which the harness may suspend the app and kill it.
        Self.persistStandardDefaults()
        // What the app freed on its way to the background goes back to the system, as Darwin's
        // allocator returns freed pages (AllocatorRelief): resident memory is then what it holds.
        AllocatorRelief.relieve()
        reportPreservedState(.background)
    }

    /// willEnterForeground, then the notifications queued while in the background, then didBecomeActive.
    func enterForeground() {
        guard state == .background else { return }
        lifecycle.state.withLock { $0.inBackground = false }
        runLoop.meter.measure("willEnterForeground") {
            delegate.willEnterForeground(self)
            postLifecycle(Self.willEnterForegroundNotification)
        }
        transition(to: .inactive)
        let queued = lifecycle.state.withLock { state -> [String] in
            defer { state.queuedNotifications.removeAll() }
            return state.queuedNotifications
        }
        for name in queued { deliverNotification(name) }
        becomeActive()
    }

    /// The background time is nearly over: each open task's expiration handler, on the main thread.
    func expireBackgroundTasks() {
        let open = lifecycle.state.withLock { $0.openTasks.sorted { $0.key < $1.key } }
        for (id, task) in open {
            emitter.emit(.backgroundTask(BackgroundTaskEvent(id: id, name: task.name, phase: .expirationHandlerCalled)))
            if let expiration = task.expiration {
                runLoop.meter.measure("backgroundTaskExpiration:\(task.name)", expiration)
            }
        }
    }

    /// A notification from the system: delivered now, or queued (one per name) in the background.
    func receiveNotification(_ name: String) {
        if state == .background {
            lifecycle.state.withLock { state in
                if !state.queuedNotifications.contains(name) { state.queuedNotifications.append(name) }
            }
        } else {
            deliverNotification(name)
        }
    }

    private func deliverNotification(_ name: String) {
        runLoop.meter.measure("notification:\(name)") {
            delegate.didReceiveNotification(self, name: name)
            if let posted = Self.notificationName(forSystemNotification: name) { postLifecycle(posted) }
        }
    }
}
