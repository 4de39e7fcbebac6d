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

    public init(cpuJoules: Double?, diskJoules: Double?, radioJoules: Double?, totalJoules: Double?,
                unavailable: [String: String], models: [String: String], deviceProfile: String,
                notes: [String], impact: EnergyImpact?) {
        self.cpuJoules = cpuJoules
        self.diskJoules = diskJoules
        self.radioJoules = radioJoules
        self.totalJoules = totalJoules
        self.unavailable = unavailable
        self.models = models
        self.deviceProfile = deviceProfile
        self.notes = notes
        self.impact = impact
    }
}

/// Energy over repetitions: the median of each part, and the impact of those medians.
public struct AggregatedEnergy: Codable, Sendable, Equatable {
    public var cpuJoules: Double?
    public var diskJoules: Double?
    public var radioJoules: Double?
    public var totalJoules: Double?
    public var impact: EnergyImpact?

    public init(cpuJoules: Double?, diskJoules: Double?, radioJoules: Double?, totalJoules: Double?, impact: EnergyImpact?) {
        self.cpuJoules = cpuJoules
        self.diskJoules = diskJoules
        self.radioJoules = radioJoules
        self.totalJoules = totalJoules
        self.impact = impact
    }
}
