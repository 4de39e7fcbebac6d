import Foundation
import FrugalProtocol
import FrugalSystem

extension Notification.Name {
    /// Posted on the main thread when the app receives a memory warning (after `Cache`s have
    /// evicted, before the delegate is told); `userInfo[Application.memoryWarningLevelKey]`
    /// holds the `MemoryWarningLevel`. Any object can observe it, as with
    /// `UIApplicationDidReceiveMemoryWarningNotification`.
    public static let frugalMemoryWarning = Notification.Name("FrugalApplicationDidReceiveMemoryWarning")
}

extension Application {
    /// The `userInfo` key of a memory warning's level.
    public nonisolated static let memoryWarningLevelKey = "level"

    /// Delivers a memory warning on the main run loop: the notification (caches evict), then
    /// the delegate, as one measured handler; reports what the app held before and after.
    func handleMemoryWarning(_ argument: String?, sequence: Int?) {
        let level = argument.flatMap(MemoryWarningLevel.init(rawValue:)) ?? .warning
        let before = MemoryTools.ledger
        let start = MonotonicClock.now()
        runLoop.meter.measure("memoryWarning:\(level.rawValue)") {
            NotificationCenter.default.post(name: .frugalMemoryWarning, object: self, userInfo: [Self.memoryWarningLevelKey: level])
            if level != .normal {
                NotificationCenter.default.post(name: Self.didReceiveMemoryWarningNotification, object: self,
                                                userInfo: [Self.memoryWarningLevelKey: level])
            }
            delegate.didReceiveMemoryWarning(self, level: level)
        }
        let end = MonotonicClock.now()
        // What the app freed in answer goes back to the system, as Darwin's allocator gives it
        // back on a pressure warning (AllocatorRelief), after the app's handler and outside it.
        if level != .normal { AllocatorRelief.relieve() }
        emitter.emit(.memory(MemoryEvent(kind: .warningHandled, level: level, handlerStart: start, handlerEnd: end,
                                         sequence: sequence, before: before, after: MemoryTools.ledger)), at: end)
    }

    /// Simulates a memory warning from inside the app (as the simulator's menu item does).
    public func simulateMemoryWarning(level: MemoryWarningLevel = .warning) {
        handleMemoryWarning(level.rawValue, sequence: nil)
    }
}
