/// One measured number with its unit and where it came from.
///
/// A metric that could not be measured keeps `value == nil` and says why in `unavailable`:
/// Frugal never reports "not measured" as zero.
public struct MetricValue: Codable, Sendable, Equatable {
    /// The measured value, or nil when it could not be measured.
    public var value: Double?
    /// The unit (`count`, `s`, `ms`, `bytes`, `1/s`, ...).
    public var unit: String
    /// Where the number came from, e.g. `papi:perf::CONTEXT-SWITCHES`, `rusage:wait4.ru_nvcsw`.
    public var source: String
    /// Why the value is missing; nil when `value` is present.
    public var unavailable: String?

    /// A measured value.
    public init(_ value: Double, unit: String, source: String) {
        self.value = value
        self.unit = unit
        self.source = source
        self.unavailable = nil
    }

    /// A value that could not be measured, with the reason.
    public static func unavailable(unit: String, source: String, reason: String) -> MetricValue {
        var metric = MetricValue(0, unit: unit, source: source)
        metric.value = nil
        metric.unavailable = reason
        return metric
    }

    private enum CodingKeys: String, CodingKey { case value, unit, source, unavailable }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(Double.self, forKey: .value)
        unit = try container.decode(String.self, forKey: .unit)
        source = try container.decode(String.self, forKey: .source)
        unavailable = try container.decodeIfPresent(String.self, forKey: .unavailable)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // `value` is always present in the JSON (null when unavailable) so readers never
        // mistake a missing key for zero.
        if let value { try container.encode(value, forKey: .value) } else { try container.encodeNil(forKey: .value) }
        try container.encode(unit, forKey: .unit)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(unavailable, forKey: .unavailable)
    }
}
