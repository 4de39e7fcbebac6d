/// An energy-impact verdict in the spirit of Xcode's energy gauge: what share each part took,
/// and low / high / very high by average power over the run.
public struct EnergyImpact: Codable, Sendable, Equatable {
    /// Average modelled power of the parts that were available, watts.
    public var averageWatts: Double
    public var level: EnergyImpactLevel
    /// Each available part's share of the total (`cpu`, `disk`, `radio`), summing to 1.
    public var shares: [String: Double]

    public init(averageWatts: Double, level: EnergyImpactLevel, shares: [String: Double]) {
        self.averageWatts = averageWatts
        self.level = level
        self.shares = shares
    }

    /// The impact of `parts` (part name → joules) over `seconds`; nil without a duration or a total.
    public static func of(parts: [String: Double], seconds: Double) -> EnergyImpact? {
        let total = parts.values.reduce(0, +)
        guard seconds > 0 else { return nil }
        let watts = total / seconds
        let shares = total > 0 ? parts.mapValues { $0 / total } : [:]
        return EnergyImpact(averageWatts: watts, level: EnergyImpactLevel(averageWatts: watts), shares: shares)
    }
}

/// Low, high or very high, by average power.
///
/// Thresholds (documented in docs/ENERGY.md): below 0.05 W is low; 0.05 W up to 0.25 W is high;
/// 0.25 W or more is very high. They are set against the reference CPU model (0.555 W at full
/// load): 0.05 W is about 9 % of one core busy or ~200 wakeups/s, which an idle-looking app
/// should never reach; 0.25 W is a core about half busy for the whole run.
public enum EnergyImpactLevel: String, Codable, Sendable, CaseIterable {
    case low, high, veryHigh = "very-high"

    public static let highWatts = 0.05
    public static let veryHighWatts = 0.25

    public init(averageWatts: Double) {
        if averageWatts >= Self.veryHighWatts { self = .veryHigh } else if averageWatts >= Self.highWatts { self = .high } else { self = .low }
    }
}
