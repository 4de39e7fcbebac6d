/// Thresholds ARO uses to cut traffic into bursts and to call bursts periodic.
///
/// The same values appear in every profile ARO ships (`lte.conf`, `i997.conf`,
/// `WiFi.conf` in AT&T Video Optimizer, `ARO.Core/src/main/resources/`), so they
/// are carried by each `RadioProfile` but identical across the built-ins.
public struct BurstCriteria: Codable, Sendable, Equatable {
    /// Silence (all connections, both directions) longer than this ends a burst. ARO `BURST_TH`.
    public var silenceSeconds: Double
    /// A periodic cycle must be longer than this. ARO `PERIOD_MIN_CYCLE`.
    public var periodMinCycleSeconds: Double
    /// Every start-to-start gap must lie within this of the median gap. ARO `PERIOD_CYCLE_TOL`.
    public var periodCycleToleranceSeconds: Double
    /// Fewest bursts that can form a periodic group. ARO `PERIOD_MIN_SAMPLES`.
    public var periodMinBursts: Int

    /// Creates criteria from explicit thresholds.
    public init(
        silenceSeconds: Double,
        periodMinCycleSeconds: Double,
        periodCycleToleranceSeconds: Double,
        periodMinBursts: Int
    ) {
        self.silenceSeconds = silenceSeconds
        self.periodMinCycleSeconds = periodMinCycleSeconds
        self.periodCycleToleranceSeconds = periodCycleToleranceSeconds
        self.periodMinBursts = periodMinBursts
    }

    /// ARO's defaults: 1.5 s burst silence, cycles over 10 s, ±1 s tolerance, 3 or more bursts.
    public static let aro = BurstCriteria(
        silenceSeconds: 1.5,
        periodMinCycleSeconds: 10.0,
        periodCycleToleranceSeconds: 1.0,
        periodMinBursts: 3
    )
}
