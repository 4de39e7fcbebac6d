/// A metric over repetitions: the median and its spread, every repetition's value, and the source.
public struct AggregatedMetric: Codable, Sendable, Equatable {
    public var unit: String
    /// The source of the repetitions' values (the first one's, when they differ).
    public var source: String
    /// The median of the repetitions that measured it; nil when none did.
    public var median: Double?
    /// The raw median absolute deviation (not scaled to a standard deviation).
    public var mad: Double?
    public var min: Double?
    public var max: Double?
    /// Every repetition's value, in run order (nil where it was unavailable).
    public var values: [Double?]
    /// Why no repetition measured it; nil when at least one did.
    public var unavailable: String?

    public init(unit: String, source: String, median: Double?, mad: Double?, min: Double?, max: Double?,
                values: [Double?], unavailable: String?) {
        self.unit = unit
        self.source = source
        self.median = median
        self.mad = mad
        self.min = min
        self.max = max
        self.values = values
        self.unavailable = unavailable
    }

    /// Aggregates one metric's per-run values (nil where a run lacked it).
    public init(runs: [MetricValue?]) {
        let template = runs.compactMap { $0 }.first
        let values = runs.map { $0?.value }
        let summary = (try? SampleSummary(values.compactMap { $0 })) ?? nil
        self.init(unit: template?.unit ?? "", source: template?.source ?? "", median: summary?.median, mad: summary?.mad,
                  min: summary?.min, max: summary?.max, values: values,
                  unavailable: summary == nil ? (template?.unavailable ?? "no run measured it") : nil)
    }
}
