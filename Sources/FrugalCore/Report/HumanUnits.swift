/// Numbers as a person reads them: scaled to a unit and rounded (26 MiB, 30.7 µJ, 1.2 s), for
/// the HTML and Markdown reports. The JSON keeps the exact values; renderers put the exact value
/// beside the scaled one (a `title` in HTML) so nothing is lost. Pure.
///
/// Bytes are binary (KiB, MiB, GiB), as the rule catalogue's control points are (256 KiB,
/// 16 MiB), so a value and the threshold it is judged against read in the same unit.
public enum HumanUnits {
    /// `value` in `unit` (a metric's or an audit's unit, as the report names it), scaled.
    public static func format(_ value: Double, unit: String) -> String {
        guard value.isFinite else { return "\(value) \(unit)" }
        switch unit {
        case "bytes", "B": return bytes(value)
        case "bytes/day": return bytes(value) + "/day"
        case "bytes/s": return bytes(value) + "/s"
        case "J": return scaledSI(value, unit: "J")
        case "W": return scaledSI(value, unit: "W")
        case "s": return seconds(value)
        case "ms": return value == 0 ? "0 ms" : seconds(value / 1000)
        case "ms/min": return (value == 0 ? "0 ms" : seconds(value / 1000)) + "/min"
        case "s/min": return seconds(value) + "/min"
        case "1/s": return DisplayFormat.number(value) + "/s"
        case "1/min": return DisplayFormat.number(value) + "/min"
        case "1/100KB": return DisplayFormat.number(value) + " per 100 kB"
        case "count": return count(value)
        case "ratio", "×": return DisplayFormat.number(value) + "×"
        case "fraction": return DisplayFormat.number(value * 100) + " %"
        case "%": return DisplayFormat.number(value) + " %"
        case "": return DisplayFormat.number(value)
        default: return DisplayFormat.number(value) + " " + unit
        }
    }

    /// The exact value with its unit, for a tooltip: every digit the JSON has.
    public static func exact(_ value: Double, unit: String) -> String {
        let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        return unit.isEmpty ? text : "\(text) \(unit)"
    }

    /// `26 MiB`, `512 B`, `1.5 KiB`.
    public static func bytes(_ value: Double) -> String {
        let magnitude = abs(value)
        for (suffix, scale) in [("GiB", 1_073_741_824.0), ("MiB", 1_048_576.0), ("KiB", 1024.0)] where magnitude >= scale {
            return DisplayFormat.number(value / scale) + " " + suffix
        }
        return DisplayFormat.number(value) + " B"
    }

    /// `850 ms`, `1.2 s`, `3.5 min`, `42 µs`.
    public static func seconds(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude == 0 { return "0 s" }
        if magnitude >= 120 { return DisplayFormat.number(value / 60) + " min" }
        if magnitude >= 1 { return DisplayFormat.number(value) + " s" }
        if magnitude >= 0.001 { return DisplayFormat.number(value * 1000) + " ms" }
        return DisplayFormat.number(value * 1_000_000) + " µs"
    }

    /// Whole counts with thousands separators (`45,000`); fractional ones (a median) rounded.
    public static func count(_ value: Double) -> String {
        guard value == value.rounded(), abs(value) < 1e15 else { return DisplayFormat.number(value) }
        let digits = String(Int64(abs(value)))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// An SI prefix from nano to kilo: `30.7 µJ`, `1.21 W`, `4.2 mJ`.
    public static func scaledSI(_ value: Double, unit: String) -> String {
        let magnitude = abs(value)
        if magnitude == 0 { return "0 " + unit }
        for (prefix, scale) in [("k", 1e3), ("", 1.0), ("m", 1e-3), ("µ", 1e-6)] where magnitude >= scale {
            return DisplayFormat.number(value / scale) + " " + prefix + unit
        }
        return DisplayFormat.number(value / 1e-9) + " n" + unit
    }
}
