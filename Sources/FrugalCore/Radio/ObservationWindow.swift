/// The span of a run over which radio state and energy are accounted.
///
/// The window is what makes idle time meaningful: without it a trace has no
/// "before the first chunk" or "after the last tail". Chunks outside the window
/// are ignored and states that would run past `end` are cut off there.
public struct ObservationWindow: Codable, Sendable, Equatable {
    /// Seconds since the run's start at which accounting begins.
    public var start: Double
    /// Seconds since the run's start at which accounting stops.
    public var end: Double

    /// Creates a window; `end` must not precede `start`.
    public init(start: Double, end: Double) {
        precondition(end >= start, "an observation window cannot end before it starts")
        self.start = start
        self.end = end
    }

    /// Length of the window in seconds.
    public var duration: Double { end - start }

    /// Whether `time` falls inside the window, both ends included.
    public func contains(_ time: Double) -> Bool { time >= start && time <= end }
}
