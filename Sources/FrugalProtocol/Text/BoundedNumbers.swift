import Foundation

/// Conversions from `Double` that never trap. Swift's `Int(_: Double)` traps on NaN, on ±∞ and
/// on anything beyond ±9.2e18, and a report or a config is a file anyone can write: a score of
/// 1e17 or a value of 1e308 is a valid JSON number, so every renderer converts through here.
public extension Int {
    /// `value` rounded to the nearest integer and saturated at `Int.min`/`Int.max`; nil for NaN.
    init?(saturating value: Double) {
        guard !value.isNaN else { return nil }
        let rounded = value.rounded()
        // 2^63 is exactly representable; every Double below it converts without trapping.
        if rounded >= 9_223_372_036_854_775_808.0 { self = .max; return }
        if rounded < -9_223_372_036_854_775_808.0 { self = .min; return }
        self = Int(rounded)
    }
}

public extension Int {
    /// `self + other`, saturated at `Int.min`/`Int.max`: for counts read from a report or a
    /// workload, which anyone can write.
    func saturatingAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}

public extension UInt64 {
    /// `value` rounded and saturated at 0 and `UInt64.max`; NaN is 0.
    init(saturating value: Double) {
        guard value > 0 else { self = 0; return }
        let rounded = value.rounded()
        if rounded >= 18_446_744_073_709_551_616.0 { self = .max; return }
        self = UInt64(rounded)
    }
}

