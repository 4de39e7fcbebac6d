import FrugalProtocol

/// The app's delegate, as `UIApplicationDelegate`: the runtime calls these on the main thread
/// as the app moves between states. Every method has an empty default. A delegate is isolated
/// to the `MainActor` (the app's main run loop), as `UIApplicationDelegate` is.
@MainActor
public protocol AppDelegate: AnyObject {
    /// Launch: set up what the first screen needs, and nothing more.
    func didFinishLaunching(_ app: Application)
    /// The app is active and receives events.
    func didBecomeActive(_ app: Application)
    /// The app is about to become inactive (an interruption, or on the way to the background).
    func willResignActive(_ app: Application)
    /// The app is in the background.
    func didEnterBackground(_ app: Application)
    /// The app is about to return to the foreground.
    func willEnterForeground(_ app: Application)
    /// The app is about to end.
    func willTerminate(_ app: Application)
    /// An input event (a touch, a button) of `kind`.
    func handleInput(_ app: Application, kind: String)
    /// A system notification (`significant-time-change`, ...). Those that arrive while the app is
    /// in the background or suspended are queued, one per name, and delivered on return to the
    /// foreground, after `willEnterForeground` and before `didBecomeActive`.
    func didReceiveNotification(_ app: Application, name: String)
    /// Memory is short (`warning`, `critical`) or no longer short (`normal`): free what can be
    /// rebuilt, at once. `Cache`s have already evicted when this is called.
    func didReceiveMemoryWarning(_ app: Application, level: MemoryWarningLevel)
}

extension AppDelegate {
    /// Does nothing unless the delegate implements it.
    public func didFinishLaunching(_ app: Application) {}
    /// Does nothing unless the delegate implements it.
    public func didBecomeActive(_ app: Application) {}
    /// Does nothing unless the delegate implements it.
    public func willResignActive(_ app: Application) {}
    /// Does nothing unless the delegate implements it.
    public func didEnterBackground(_ app: Application) {}
    /// Does nothing unless the delegate implements it.
    public func willEnterForeground(_ app: Application) {}
    /// Does nothing unless the delegate implements it.
    public func willTerminate(_ app: Application) {}
    /// Does nothing unless the delegate implements it.
    public func handleInput(_ app: Application, kind: String) {}
    /// Does nothing unless the delegate implements it.
    public func didReceiveNotification(_ app: Application, name: String) {}
    /// Does nothing unless the delegate implements it (its `Cache`s have evicted already).
    public func didReceiveMemoryWarning(_ app: Application, level: MemoryWarningLevel) {}
}
