/// A timer on the main run loop, like `NSTimer`: an interval, whether it repeats, and a
/// tolerance that lets the run loop fire it late to share one wakeup with other timers. It lives
/// on the main run loop: create, fire and invalidate it there.
@MainActor
public final class RunLoopTimer {
    /// Names the timer in handler records (`timer:<name>`, or `frame:<name>` for a frame timer).
    public let name: String
    /// Whether it draws frames (`MainRunLoop.scheduleFrameTimer`), like a `CADisplayLink`.
    public let drawsFrames: Bool
    /// Seconds between firings.
    public let interval: Double
    /// Whether the timer fires every `interval` or once.
    public let repeats: Bool
    /// How late, in seconds, the timer may fire so that its wakeup can be shared.
    public let tolerance: Double
    let handler: (RunLoopTimer) -> Void
    /// Monotonic ns of the next firing.
    var fireTime: UInt64
    /// False once invalidated (or once a one-shot timer fired).
    public private(set) var isValid = true

    init(name: String, interval: Double, repeats: Bool, tolerance: Double, firstFire: UInt64, drawsFrames: Bool = false,
         handler: @escaping (RunLoopTimer) -> Void) {
        self.name = name
        self.drawsFrames = drawsFrames
        self.interval = interval
        self.repeats = repeats
        self.tolerance = max(0, tolerance)
        self.fireTime = firstFire
        self.handler = handler
    }

    /// Stops the timer; it will not fire again.
    public func invalidate() { isValid = false }

    /// The name its handlers are recorded under.
    var handlerName: String { (drawsFrames ? "frame:" : "timer:") + name }

    /// The latest time the timer may fire.
    var latestFireTime: UInt64 { fireTime + UInt64(tolerance * 1e9) }
}
