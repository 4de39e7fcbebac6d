/// One stretch of the radio's timeline in a single state, for drawing a lane.
public struct RadioInterval: Codable, Sendable, Equatable {
    /// The technology-neutral state, used for totals.
    public var state: RadioState
    /// Seconds since the run's start.
    public var start: Double
    /// Seconds since the run's start; equal to `start` for a lone chunk's active instant.
    public var end: Double
    /// Energy spent in this stretch.
    public var joules: Double
    /// The technology's own name for the state, e.g. "FACH" or "DRX tail".
    public var rrcState: String
    /// Bytes sent by the device during this stretch (active intervals only).
    public var uplinkBytes: Int
    /// Bytes received by the device during this stretch (active intervals only).
    public var downlinkBytes: Int

    /// Creates an interval; `rrcState` defaults to the neutral state's name.
    public init(
        state: RadioState,
        start: Double,
        end: Double,
        joules: Double = 0,
        rrcState: String? = nil,
        uplinkBytes: Int = 0,
        downlinkBytes: Int = 0
    ) {
        self.state = state
        self.start = start
        self.end = end
        self.joules = joules
        self.rrcState = rrcState ?? state.rawValue
        self.uplinkBytes = uplinkBytes
        self.downlinkBytes = downlinkBytes
    }

    /// Length in seconds.
    public var duration: Double { end - start }
}
