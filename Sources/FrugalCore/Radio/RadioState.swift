/// The four kinds of radio time Frugal accounts for, common to every technology.
///
/// Technology-specific states map onto these: 3G's DCH tail and FACH both count
/// as `tail`, and FACH→DCH counts as `promotion` like IDLE→DCH.
public enum RadioState: String, Codable, Sendable, CaseIterable {
    /// Climbing from a low-power state to the one that can move data.
    case promotion
    /// Moving data (or between chunks closer than the profile's hold time).
    case active
    /// Still powered up after the last chunk, waiting for an inactivity timer.
    case tail
    /// Idle or standby: the baseline the radio would sit at with no traffic.
    case idle
}
