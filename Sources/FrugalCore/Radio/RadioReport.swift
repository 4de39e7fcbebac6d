/// What a radio model says about one trace in one observation window.
///
/// Every figure is derived from `timeline` when the report is made, so the
/// totals and the lane can never disagree. The stored totals are there so the
/// JSON form carries them too.
///
/// Idle energy is reported but kept out of `attributedJoules`: ARO books idle
/// separately, and the idle baseline is what the radio would draw with no
/// traffic at all, so it is not the app's doing. `attributedJoules` does not
/// subtract the idle power the radio would have drawn during the promotion,
/// active and tail seconds themselves (at most 0.02 W in the built-ins).
public struct RadioReport: Codable, Sendable, Equatable {
    /// Name of the profile that produced the report.
    public let profileName: String
    /// Technology of that profile.
    public let technology: RadioProfile.Technology
    /// The window the report covers; the timeline tiles it exactly.
    public let window: ObservationWindow
    /// The state lane, in time order, without gaps between consecutive intervals.
    public let timeline: [RadioInterval]
    /// Promotions started for chunks inside the window, including ones cut short
    /// by the window's start and Wi-Fi's zero-length wakes.
    public let promotions: Int
    /// Seconds in each state.
    public let seconds: RadioStateTotals
    /// Joules in each state.
    public let joules: RadioStateTotals
    /// All radio energy in the window, idle included.
    public let totalJoules: Double
    /// Energy the traffic caused: promotion + active + tail, idle excluded.
    public let attributedJoules: Double
    /// Seconds the radio was up because of traffic: promotion + active + tail.
    public let radioActiveSeconds: Double
    /// Bytes the device sent inside the window.
    public let uplinkBytes: Int
    /// Bytes the device received inside the window.
    public let downlinkBytes: Int

    /// Builds a report, deriving every total from `timeline`.
    public init(
        profileName: String,
        technology: RadioProfile.Technology,
        window: ObservationWindow,
        timeline: [RadioInterval],
        promotions: Int
    ) {
        var seconds = RadioStateTotals()
        var joules = RadioStateTotals()
        var up = 0
        var down = 0
        for interval in timeline {
            seconds[interval.state] += interval.duration
            joules[interval.state] += interval.joules
            up += interval.uplinkBytes
            down += interval.downlinkBytes
        }
        self.profileName = profileName
        self.technology = technology
        self.window = window
        self.timeline = timeline
        self.promotions = promotions
        self.seconds = seconds
        self.joules = joules
        self.totalJoules = joules.total
        self.attributedJoules = joules.excludingIdle
        self.radioActiveSeconds = seconds.excludingIdle
        self.uplinkBytes = up
        self.downlinkBytes = down
    }

    /// Seconds spent in tail states (LTE tail; 3G DCH tail plus FACH; Wi-Fi tail).
    public var tailSeconds: Double { seconds.tail }

    /// Promotions per minute of window, the `network.no-server-polling` figure; zero for an empty window.
    public var promotionsPerMinute: Double {
        window.duration > 0 ? Double(promotions) * 60 / window.duration : 0
    }
}
