/// A number an energy model uses, with where it comes from: a published measurement, or an
/// assumption that says so and why.
public struct ModelConstant: Codable, Sendable, Equatable {
    public var value: Double
    public var unit: String
    /// The publication (and table) the number comes from, or the reasoning behind an assumption.
    public var source: String
    /// True when no published measurement backs the number.
    public var assumption: Bool

    /// A constant from a publication.
    public static func cited(_ value: Double, _ unit: String, _ source: String) -> ModelConstant {
        ModelConstant(value: value, unit: unit, source: source, assumption: false)
    }

    /// A constant Frugal assumes, with the reasoning.
    public static func assumed(_ value: Double, _ unit: String, _ reasoning: String) -> ModelConstant {
        ModelConstant(value: value, unit: unit, source: "assumption: " + reasoning, assumption: true)
    }
}
