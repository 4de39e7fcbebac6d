import Foundation

/// Errors thrown by Frugal's statistics when their input cannot be analysed.
///
/// Non-finite measurements are rejected rather than skipped: a NaN or an
/// infinity in a report almost always means a broken probe or a parsing bug,
/// and silently dropping it would make the comparison look cleaner than the
/// data really is.
public enum StatisticsError: Error, Sendable, CustomStringConvertible {
    /// `sample[index]` is NaN or ±infinity.
    case nonFiniteValue(sample: String, index: Int, value: Double)
    /// The named sample has no values, but the operation needs at least one.
    case emptySample(sample: String)
    /// A tuning parameter is outside its valid range.
    case invalidParameter(name: String, value: Double, requirement: String)

    public var description: String {
        switch self {
        case let .nonFiniteValue(sample, index, value):
            return "\(sample)[\(index)] is \(value); statistics need finite values"
        case let .emptySample(sample):
            return "\(sample) sample is empty; at least one value is needed"
        case let .invalidParameter(name, value, requirement):
            return "\(name) = \(value) is invalid: \(requirement)"
        }
    }
}

extension StatisticsError: LocalizedError {
    public var errorDescription: String? { description }
}

/// Input checks shared by every statistic, kept in one place so that every
/// entry point reports bad data with the same wording.
enum StatisticsInput {
    /// Throws `StatisticsError.nonFiniteValue` naming the first NaN/infinite value.
    static func requireFinite(_ values: [Double], sample: String) throws {
        if let index = values.firstIndex(where: { !$0.isFinite }) {
            throw StatisticsError.nonFiniteValue(sample: sample, index: index, value: values[index])
        }
    }

    /// Throws unless `values` is non-empty and entirely finite.
    static func requireNonEmptyFinite(_ values: [Double], sample: String) throws {
        try requireFinite(values, sample: sample)
        if values.isEmpty {
            throw StatisticsError.emptySample(sample: sample)
        }
    }

    /// Throws unless `0 < value < 1` (used for α and confidence levels).
    static func requireOpenUnitInterval(_ value: Double, name: String) throws {
        guard value > 0, value < 1 else {
            throw StatisticsError.invalidParameter(name: name, value: value, requirement: "must be strictly between 0 and 1")
        }
    }
}
