import Foundation

/// Sizes as scenarios write them: `48MiB`, `512KiB`, `1GiB`, or a plain number of bytes.
public enum ByteCount {
    /// Bytes of `text`, or nil when it is not a size.
    /// The largest size a scenario or config may name: 1 PiB. Larger ones (`1e300GiB`) are not
    /// sizes of anything this tool measures, and once trapped converting to `Int`.
    public static let maximum = 1 << 50

    /// Bytes of `text`, or nil when it is not a size (or is beyond ``maximum``).
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Int)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("B", 1)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard let value = Double(number), value >= 0, value * Double(scale) <= Double(maximum) else { return nil }
            return Int((value * Double(scale)).rounded())
        }
        guard let bytes = Int(trimmed), bytes >= 0, bytes <= maximum else { return nil }
        return bytes
    }

    /// `48MiB` for 50331648; whole numbers of the largest unit that divides, else bytes.
    public static func format(_ bytes: Int) -> String {
        for (suffix, scale) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= scale && bytes % scale == 0 {
            return "\(bytes / scale)\(suffix)"
        }
        return "\(bytes)B"
    }

    /// `1.5 MiB`: for display values.
    public static func display(_ bytes: Double) -> String {
        let magnitude = abs(bytes)
        if magnitude >= 1_048_576 { return "\(DisplayFormat.number(bytes / 1_048_576)) MiB" }
        if magnitude >= 1024 { return "\(DisplayFormat.number(bytes / 1024)) KiB" }
        return "\(DisplayFormat.number(bytes)) B"
    }
}
