import Foundation

/// Percentile-bootstrap confidence interval for the difference of medians,
/// `median(head) − median(base)`.
///
/// Each of the ``resamples`` rounds draws `base.count` values from `base` and
/// `head.count` values from `head` with replacement (the two samples are
/// resampled independently because they come from independent runs) and
/// records the difference of the resample medians. The interval is the pair
/// of (1 − c)/2 and (1 + c)/2 quantiles of those differences, using linear
/// interpolation between order statistics (NumPy's default, Hyndman–Fan
/// type 7).
///
/// The result is deterministic: randomness comes only from
/// ``Xoshiro256StarStar`` seeded with ``seed``, consumed in a fixed order
/// (per round: all base draws, then all head draws). The same inputs, seed,
/// confidence and resample count always give the identical interval.
///
/// With 5 repetitions per side the bootstrap distribution of a median is
/// coarse (a resample median can only be one of the observed values), so the
/// interval is a sanity check on the sign and size of a change, used together
/// with the rank test rather than instead of it.
public struct BootstrapInterval: Codable, Sendable, Equatable {
    /// Default number of bootstrap rounds: enough that the 2.5 % / 97.5 %
    /// quantiles are stable to well under the resolution of 5-value medians,
    /// while costing only milliseconds.
    public static let defaultResamples = 2000
    /// Default two-sided confidence level.
    public static let defaultConfidence = 0.95
    /// Default seed ("FRUGAL" in ASCII); fixed so CI runs are reproducible.
    public static let defaultSeed: UInt64 = 0x4652_5547_414C

    /// Lower bound of the interval.
    public let lower: Double
    /// Upper bound of the interval.
    public let upper: Double
    /// The observed, non-resampled `median(head) − median(base)`.
    public let observedDifference: Double
    /// Confidence level, e.g. 0.95.
    public let confidence: Double
    /// Number of bootstrap rounds.
    public let resamples: Int
    /// Seed of the generator that drew the resamples.
    public let seed: UInt64

    /// Computes the interval.
    ///
    /// - Parameters:
    ///   - base: Baseline repetitions (non-empty, finite).
    ///   - head: New repetitions (non-empty, finite).
    ///   - confidence: Two-sided level in (0, 1); default 0.95.
    ///   - resamples: Bootstrap rounds, at least 1; default 2000.
    ///   - seed: Generator seed; default ``defaultSeed``.
    /// - Throws: ``StatisticsError`` for empty or non-finite samples and
    ///   out-of-range parameters.
    public init(
        base: [Double],
        head: [Double],
        confidence: Double = BootstrapInterval.defaultConfidence,
        resamples: Int = BootstrapInterval.defaultResamples,
        seed: UInt64 = BootstrapInterval.defaultSeed
    ) throws {
        try StatisticsInput.requireNonEmptyFinite(base, sample: "base")
        try StatisticsInput.requireNonEmptyFinite(head, sample: "head")
        try StatisticsInput.requireOpenUnitInterval(confidence, name: "confidence")
        guard resamples >= 1 else {
            throw StatisticsError.invalidParameter(name: "resamples", value: Double(resamples), requirement: "must be at least 1")
        }

        self.confidence = confidence
        self.resamples = resamples
        self.seed = seed
        // Every resample of a sample whose values are all equal is that sample: each round's
        // difference is the same, and so is each quantile of them. The same arithmetic as the
        // rounds (median of the sorted sample, head minus base) gives the same bits, without the
        // rounds: most of a suite's counts are such samples (0 bytes, 0 files in every run), and
        // `frugal compare` of two 225-run reports spent nearly all its time here.
        if let first = base.first, base.allSatisfy({ $0.bitPattern == first.bitPattern }),
           let headFirst = head.first, head.allSatisfy({ $0.bitPattern == headFirst.bitPattern }) {
            let difference = SampleSummary.median(ofSorted: head) - SampleSummary.median(ofSorted: base)
            self.lower = difference
            self.upper = difference
            self.observedDifference = difference
            return
        }
        var generator = Xoshiro256StarStar(seed: seed)
        // Reused buffers: this runs thousands of times per metric.
        var baseBuffer = [Double](repeating: 0, count: base.count)
        var headBuffer = [Double](repeating: 0, count: head.count)
        var differences = [Double]()
        differences.reserveCapacity(resamples)
        for _ in 0..<resamples {
            let baseMedian = Self.resampleMedian(of: base, into: &baseBuffer, using: &generator)
            let headMedian = Self.resampleMedian(of: head, into: &headBuffer, using: &generator)
            differences.append(headMedian - baseMedian)
        }
        differences.sort()

        let tail = (1 - confidence) / 2
        self.lower = Self.quantile(ofSorted: differences, at: tail)
        self.upper = Self.quantile(ofSorted: differences, at: 1 - tail)
        self.observedDifference = SampleSummary.median(ofSorted: head.sorted()) - SampleSummary.median(ofSorted: base.sorted())
    }

    /// Whether `value` lies in the closed interval [lower, upper].
    public func contains(_ value: Double) -> Bool {
        lower <= value && value <= upper
    }

    /// Whether zero lies strictly outside the interval, i.e. the whole
    /// interval agrees on the sign of the change.
    public var excludesZero: Bool { lower > 0 || upper < 0 }

    /// Median of one with-replacement resample of `values`.
    private static func resampleMedian(
        of values: [Double],
        into buffer: inout [Double],
        using generator: inout Xoshiro256StarStar
    ) -> Double {
        for slot in buffer.indices {
            buffer[slot] = values[generator.nextIndex(below: values.count)]
        }
        sortSmall(&buffer)
        return SampleSummary.median(ofSorted: buffer)
    }

    /// Sorts ascending. Repetition samples are tiny (3–10 values) and this
    /// runs thousands of times per metric; insertion sort beats the generic
    /// `sort()` there, notably in unoptimised debug builds used by `swift test`.
    private static func sortSmall(_ buffer: inout [Double]) {
        guard buffer.count <= 32 else {
            buffer.sort()
            return
        }
        buffer.withUnsafeMutableBufferPointer { values in
            for i in 1..<values.count {
                let value = values[i]
                var j = i
                while j > 0, values[j - 1] > value {
                    values[j] = values[j - 1]
                    j -= 1
                }
                values[j] = value
            }
        }
    }

    /// Type-7 quantile of an ascending, non-empty array: the value at
    /// fractional position p·(n − 1), interpolated linearly.
    static func quantile(ofSorted sorted: [Double], at probability: Double) -> Double {
        let position = probability * Double(sorted.count - 1)
        let below = Int(position.rounded(.down))
        let above = Swift.min(below + 1, sorted.count - 1)
        let fraction = position - Double(below)
        return sorted[below] + fraction * (sorted[above] - sorted[below])
    }
}
