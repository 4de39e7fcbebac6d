#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an audit turns its number into a score in [0, 1].
public enum ScoringCurve: Codable, Sendable, Equatable {
    /// Lighthouse's log-normal curve, lower is better: `good` scores 0.9 and `poor` 0.5.
    case logNormal(good: Double, poor: Double)
    /// Pass or fail: values up to `maxPassing` score 1, anything above scores 0.
    case binary(maxPassing: Double)

    /// The score of `value` on this curve.
    public func score(_ value: Double) -> Double {
        switch self {
        case .logNormal(let good, let poor):
            return LogNormalScoring.score(value, p10: good, median: poor)
        case .binary(let maxPassing):
            return value <= maxPassing ? 1 : 0
        }
    }
}

/// Lighthouse's log-normal scoring (`getLogNormalScore`, shared/statistics.js): the score is the
/// complementary CDF of a log-normal distribution whose median is the 0.5 point and whose 10th
/// percentile is the 0.9 point. Scores are clamped so that each band stays in its range.
public enum LogNormalScoring {
    /// erfc⁻¹(0.2): the standard value at which erfc(x)/2 = 0.1.
    static let inverseErfcOneFifth = 0.9061938024368232
    /// The exact double bounds Lighthouse uses so that band membership never rounds across.
    static let minPassingScore = 0.9
    static let maxAverageScore = 0.8999999999999999
    static let maxFailingScore = 0.49999999999999994

    /// The score of `value` for control points `p10` (scores 0.9) and `median` (scores 0.5).
    /// Values at or below zero score 1.
    public static func score(_ value: Double, p10: Double, median: Double) -> Double {
        precondition(p10 > 0 && median > p10, "control points need 0 < p10 < median")
        if value <= 0 { return 1 }
        let xLogRatio = log(value / median)
        let p10LogRatio = -log(p10 / median)
        let standardizedX = xLogRatio * inverseErfcOneFifth / p10LogRatio
        let complementaryPercentile = erfc(standardizedX) / 2
        if value <= p10 { return max(minPassingScore, min(1, complementaryPercentile)) }
        if value <= median { return max(0.5, min(maxAverageScore, complementaryPercentile)) }
        return max(0, min(maxFailingScore, complementaryPercentile))
    }
}

/// The bands a score falls in, as Lighthouse names them.
public enum ScoreBand: String, Codable, Sendable {
    case pass, average, fail

    /// pass ≥ 0.9, average 0.5–0.9, fail < 0.5.
    public init(score: Double) {
        if score >= 0.9 { self = .pass } else if score >= 0.5 { self = .average } else { self = .fail }
    }
}
