import Foundation
import FrugalProtocol

/// The lifecycle as model code observes it: `NotificationCenter.default`, with UIKit's names.
///
/// Each is posted on the main thread, in UIKit's order, right after the delegate's method of
/// the same moment and inside the same measured handler, so what observers do is timed (and
/// judged) as the delegate's work is. `object` is the `Application`. Code shared with an iOS
/// target can name them through one alias:
///
/// ```swift
/// #if canImport(UIKit)
/// typealias AppNotifications = UIApplication
/// #else
/// import FrugalKit
/// typealias AppNotifications = Application
/// #endif
/// NotificationCenter.default.addObserver(forName: AppNotifications.didEnterBackgroundNotification, ...)
/// ```
extension Application {
    /// After `didFinishLaunching` (`UIApplicationDidFinishLaunchingNotification`).
    public nonisolated static let didFinishLaunchingNotification = Notification.Name("UIApplicationDidFinishLaunchingNotification")
    /// After `didBecomeActive` (`UIApplicationDidBecomeActiveNotification`).
    public nonisolated static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
    /// After `willResignActive` (`UIApplicationWillResignActiveNotification`).
    public nonisolated static let willResignActiveNotification = Notification.Name("UIApplicationWillResignActiveNotification")
    /// After `didEnterBackground` (`UIApplicationDidEnterBackgroundNotification`): save here.
    public nonisolated static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    /// After `willEnterForeground` (`UIApplicationWillEnterForegroundNotification`).
    public nonisolated static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
    /// After `willTerminate` (`UIApplicationWillTerminateNotification`).
    public nonisolated static let willTerminateNotification = Notification.Name("UIApplicationWillTerminateNotification")
    /// A `warning` or `critical` memory warning, before the delegate is told
    /// (`UIApplicationDidReceiveMemoryWarningNotification`); `userInfo[Application.memoryWarningLevelKey]`
    /// holds the level. (`.frugalMemoryWarning` is posted as well, for every level.)
    public nonisolated static let didReceiveMemoryWarningNotification = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")
    /// The system's `significant-time-change` notification, after the delegate's
    /// `didReceiveNotification` (`UIApplicationSignificantTimeChangeNotification`).
    public nonisolated static let significantTimeChangeNotification = Notification.Name("UIApplicationSignificantTimeChangeNotification")

    /// The notification each system notification the harness sends is also posted as.
    nonisolated static func notificationName(forSystemNotification name: String) -> Notification.Name? {
        name == "significant-time-change" ? significantTimeChangeNotification : nil
    }

    /// Posts `name` from the app, on the main thread (the caller's).
    func postLifecycle(_ name: Notification.Name, userInfo: [AnyHashable: Any]? = nil) {
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }

    /// UIKit's spelling of `beginBackgroundTask(name:expiration:)`, so shared app code compiles
    /// unchanged: asks for background time to finish `taskName`; balance it with `endBackgroundTask(_:)`.
    public nonisolated func beginBackgroundTask(withName taskName: String?,
                                                expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil) -> BackgroundTaskIdentifier {
        beginBackgroundTask(name: taskName ?? "unnamed", expiration: handler)
    }

    /// UIKit's `beginBackgroundTask(expirationHandler:)`: a task without a name.
    public nonisolated func beginBackgroundTask(expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil) -> BackgroundTaskIdentifier {
        beginBackgroundTask(name: "unnamed", expiration: handler)
    }
}
