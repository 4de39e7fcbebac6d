/// A run's modelled energy by part. A part that could not be modelled is nil with its reason in
/// `unavailable`, never 0; `totalJoules` sums the parts that were available and `notes` says
/// which were left out.
public struct RunEnergy: Codable, Sendable, Equatable {
    public var cpuJoules: Double?
    public var diskJoules: Double?
    public var radioJoules: Double?
    /// The sum of the available parts; nil when none was available.
    public var totalJoules: Double?
    /// Part (`cpu`, `disk`, `radio`) → why it is missing.
    public var unavailable: [String: String]
    /// The models used: part → model name.
    public var models: [String: String]
    public var deviceProfile: String
    /// What a reader must know: parts left out of the total, inputs that were missing.
    public var notes: [String]
    public var impact: EnergyImpact?
    /// The package energy the machine measured over the run (RAPL via powercap), beside the
    /// modelled parts and never in `totalJoules`: the whole package, not the app alone, on this
    /// machine rather than the reference device. Nil when not measured, the reason in
    /// `unavailable["measured"]`.
    public var measuredJoules: Double?
    /// Where `measuredJoules` comes from.
    public var measuredSource: String?

    public init(cpuJoules: Double?, diskJoules: Double?, radioJoules: Double?, totalJoules: Double?,
                unavailable: [String: String], models: [String: String], deviceProfile: String,
                notes: [String], impact: EnergyImpact?, measuredJoules: Double? = nil, measuredSource: String? = nil) {
        self.cpuJoules = cpuJoules
        self.diskJoules = diskJoules
        self.radioJoules = radioJoules
        self.totalJoules = totalJoules
        self.unavailable = unavailable
        self.models = models
        self.deviceProfile = deviceProfile
        self.notes = notes
        self.impact = impact
        self.measuredJoules = measuredJoules
        self.measuredSource = measuredSource
    }
}

/// Energy over repetitions: the median of each part, and the impact of those medians.
public struct AggregatedEnergy: Codable, Sendable, Equatable {
    public var cpuJoules: Double?
    public var diskJoules: Double?
    public var radioJoules: Double?
    public var totalJoules: Double?
    public var impact: EnergyImpact?
    /// The median measured package energy (``RunEnergy/measuredJoules``); nil when no run had one.
    public var measuredJoules: Double?

    public init(cpuJoules: Double?, diskJoules: Double?, radioJoules: Double?, totalJoules: Double?, impact: EnergyImpact?,
                measuredJoules: Double? = nil) {
        self.cpuJoules = cpuJoules
        self.diskJoules = diskJoules
        self.radioJoules = radioJoules
        self.totalJoules = totalJoules
        self.impact = impact
        self.measuredJoules = measuredJoules
    }
}
