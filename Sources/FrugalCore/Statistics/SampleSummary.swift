import Foundation

/// Robust description of one small sample of repetitions (for example the
/// wall-clock time of 5 repetitions of a benchmark).
///
/// The median and the MAD are the primary location and spread: with 3–10
/// repetitions a single outlier (a CI neighbour stealing the CPU) moves the
/// mean a lot but the median hardly at all. The mean, min and max are kept
/// because they are what people check by eye in a report.
public struct SampleSummary: Codable, Sendable, Equatable {
    /// Factor that turns the raw MAD into a consistent estimator of the
    /// standard deviation for normally distributed data (1 / Φ⁻¹(3/4)).
    public static let normalConsistencyFactor = 1.482_602_218_505_602

    /// Number of values.
    public let count: Int
    /// Median; for an even count, the mean of the two middle values.
    public let median: Double
    /// Median absolute deviation from the median, **raw and unscaled**
    /// (not multiplied by 1.4826). Use ``scaledMAD`` to compare with a
    /// standard deviation.
    public let mad: Double
    /// Smallest value.
    public let min: Double
    /// Largest value.
    public let max: Double
    /// Arithmetic mean.
    public let mean: Double

    /// Summarises `values`.
    ///
    /// - Returns: `nil` for an empty sample: there is no honest median of
    ///   nothing, and zeros would read as a real measurement in a report.
    /// - Throws: ``StatisticsError/nonFiniteValue(sample:index:value:)`` if a
    ///   value is NaN or infinite (named `"sample"` in the error).
    public init?(_ values: [Double]) throws {
        try self.init(values, sampleName: "sample")
    }

    /// Like ``init(_:)``, but names the sample (e.g. `"base"`) in errors.
    public init?(_ values: [Double], sampleName: String) throws {
        try StatisticsInput.requireFinite(values, sample: sampleName)
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let median = Self.median(ofSorted: sorted)
        let deviations = sorted.map { abs($0 - median) }.sorted()
        self.count = sorted.count
        self.median = median
        self.mad = Self.median(ofSorted: deviations)
        self.min = sorted[0]
        self.max = sorted[sorted.count - 1]
        self.mean = sorted.reduce(0, +) / Double(sorted.count)
    }

    /// Creates a summary from already computed statistics (e.g. when
    /// rebuilding one from a stored report).
    public init(count: Int, median: Double, mad: Double, min: Double, max: Double, mean: Double) {
        self.count = count
        self.median = median
        self.mad = mad
        self.min = min
        self.max = max
        self.mean = mean
    }

    /// MAD × 1.4826: estimates the standard deviation if the data were normal.
    public var scaledMAD: Double { mad * Self.normalConsistencyFactor }

    /// Raw MAD divided by |median| (a robust coefficient of variation);
    /// `nil` when the median is zero.
    public var relativeMAD: Double? { median == 0 ? nil : mad / abs(median) }

    /// The median of `values`, in any order: the mean of the two middle values for an even
    /// count; nil for none. Frugal's one median: aggregation, audits, energy and comparison all
    /// use it, so a value and its comparison agree.
    public static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : median(ofSorted: values.sorted())
    }

    /// Median of a non-empty, ascending array. Shared with the bootstrap so
    /// that both use exactly the same definition of "median".
    static func median(ofSorted sorted: [Double]) -> Double {
        precondition(!sorted.isEmpty, "median of an empty sample")
        let middle = sorted.count / 2
        if sorted.count % 2 == 1 {
            return sorted[middle]
        }
        // Halve before adding so two huge values cannot overflow to infinity.
        return sorted[middle - 1] / 2 + sorted[middle] / 2
    }
}
