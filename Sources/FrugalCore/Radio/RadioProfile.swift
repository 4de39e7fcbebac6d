/// Every constant of one radio's energy model, with where each number came from.
///
/// One shape serves LTE, 3G and Wi-Fi because all three follow the same
/// sequence: promotion → active → tail → (3G only: FACH) → idle. Stages a
/// technology lacks are zero (Wi-Fi has no promotion, only 3G has FACH).
/// Powers are watts, times seconds, throughput coefficients watts per Mbps
/// (1 Mbps = 10⁶ bit/s), so a coefficient is also joules per megabit.
public struct RadioProfile: Codable, Sendable, Equatable {
    /// The radio access technology a profile models.
    public enum Technology: String, Codable, Sendable, CaseIterable {
        case lte, threeG, wifi
    }

    /// Short human-readable name, e.g. "LTE (Huang et al. 2012 / ARO)".
    public var name: String
    /// Which radio this profile models; selects the state names on the timeline.
    public var technology: Technology

    /// Time to leave idle and reach the active state (LTE RRC_IDLE→CONNECTED, 3G IDLE→DCH).
    public var promotionSeconds: Double
    /// Average power while that promotion runs.
    public var promotionWatts: Double

    /// Power while moving data, before any throughput term (LTE β, 3G DCH, Wi-Fi active).
    public var activeWatts: Double
    /// Extra power per Mbps of uplink throughput while active (LTE α_u; zero elsewhere).
    public var uplinkWattsPerMbps: Double
    /// Extra power per Mbps of downlink throughput while active (LTE α_d; zero elsewhere).
    public var downlinkWattsPerMbps: Double
    /// Longest silence between chunks that still counts as one active period.
    public var activeHoldSeconds: Double

    /// How long the radio stays up at `tailWatts` after the last chunk (LTE tail, 3G DCH tail, Wi-Fi tail).
    public var tailSeconds: Double
    /// Average power during that tail.
    public var tailWatts: Double

    /// 3G only: time spent in FACH after the DCH tail before dropping to idle; zero elsewhere.
    public var fachSeconds: Double
    /// 3G only: power in FACH.
    public var fachWatts: Double
    /// 3G only: time to climb from FACH back to DCH when traffic arrives during FACH.
    public var fachPromotionSeconds: Double
    /// 3G only: average power during a FACH→DCH promotion.
    public var fachPromotionWatts: Double

    /// Power while idle between paging wake-ups.
    public var idleWatts: Double
    /// Power of each idle paging wake-up (LTE idle DRX on-duration); zero if not modelled.
    public var idlePingWatts: Double
    /// Length of each idle paging wake-up.
    public var idlePingSeconds: Double
    /// Period of idle paging wake-ups; zero means the radio idles at a flat `idleWatts`.
    public var idlePingPeriodSeconds: Double

    /// ARO's burst and periodicity thresholds, carried with the radio constants as ARO does.
    public var burstCriteria: BurstCriteria

    /// Citations for the numbers in this profile.
    public var sources: [String]
    /// Per-constant provenance, keyed by property name (nested ones as `burstCriteria.x`).
    public var notes: [String: String]

    /// Creates a profile from explicit constants; see the property docs for units.
    public init(
        name: String,
        technology: Technology,
        promotionSeconds: Double,
        promotionWatts: Double,
        activeWatts: Double,
        uplinkWattsPerMbps: Double,
        downlinkWattsPerMbps: Double,
        activeHoldSeconds: Double,
        tailSeconds: Double,
        tailWatts: Double,
        fachSeconds: Double,
        fachWatts: Double,
        fachPromotionSeconds: Double,
        fachPromotionWatts: Double,
        idleWatts: Double,
        idlePingWatts: Double,
        idlePingSeconds: Double,
        idlePingPeriodSeconds: Double,
        burstCriteria: BurstCriteria,
        sources: [String],
        notes: [String: String]
    ) {
        self.name = name
        self.technology = technology
        self.promotionSeconds = promotionSeconds
        self.promotionWatts = promotionWatts
        self.activeWatts = activeWatts
        self.uplinkWattsPerMbps = uplinkWattsPerMbps
        self.downlinkWattsPerMbps = downlinkWattsPerMbps
        self.activeHoldSeconds = activeHoldSeconds
        self.tailSeconds = tailSeconds
        self.tailWatts = tailWatts
        self.fachSeconds = fachSeconds
        self.fachWatts = fachWatts
        self.fachPromotionSeconds = fachPromotionSeconds
        self.fachPromotionWatts = fachPromotionWatts
        self.idleWatts = idleWatts
        self.idlePingWatts = idlePingWatts
        self.idlePingSeconds = idlePingSeconds
        self.idlePingPeriodSeconds = idlePingPeriodSeconds
        self.burstCriteria = burstCriteria
        self.sources = sources
        self.notes = notes
    }

    /// Mean idle power with paging wake-ups spread evenly over time.
    ///
    /// The phase of the paging cycle relative to a trace is unknown, so the
    /// expectation is used rather than ARO's count of whole ping periods.
    public var idleAverageWatts: Double {
        guard idlePingPeriodSeconds > 0 else { return idleWatts }
        let awake = idlePingSeconds * idlePingWatts
        let asleep = (idlePingPeriodSeconds - idlePingSeconds) * idleWatts
        return (awake + asleep) / idlePingPeriodSeconds
    }

    /// Energy of one active period: base power for its length plus the throughput term.
    ///
    /// Huang's power is β + α_u·u + α_d·d with u, d in Mbps over the period. Since
    /// that is linear, its integral over the period is β·t + α_u·(uplink megabits)
    /// + α_d·(downlink megabits) whatever the binning, and it stays finite for a
    /// zero-length period (a lone chunk), where a windowed throughput would drop the bytes.
    public func activeJoules(seconds: Double, uplinkBytes: Int, downlinkBytes: Int) -> Double {
        let upMegabits = Double(uplinkBytes) * 8 / 1_000_000
        let downMegabits = Double(downlinkBytes) * 8 / 1_000_000
        return activeWatts * seconds
            + uplinkWattsPerMbps * upMegabits
            + downlinkWattsPerMbps * downMegabits
    }
}
