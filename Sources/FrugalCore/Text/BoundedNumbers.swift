import Foundation

/// A score or a number as readers see it, through the saturating conversions of FrugalProtocol's
/// BoundedNumbers.swift (a report or a config is a file anyone can write).
public extension DisplayFormat {
    /// A score in [0, 1] as the 0–100 number readers see ("87"); "–" when there is none.
    /// Out-of-range scores (from a hand-edited report) print as they are, saturated, never trap.
    static func score(_ score: Double?) -> String {
        guard let score else { return "–" }
        guard let percent = Int(saturating: score * 100) else { return "NaN" }
        return String(percent)
    }

    /// A whole number of something ("12 s", an SVG coordinate), saturated; "NaN" for NaN.
    static func integer(_ value: Double) -> String {
        Int(saturating: value).map(String.init) ?? "NaN"
    }
}
