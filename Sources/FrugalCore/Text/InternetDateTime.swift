import Foundation

/// A moment as RFC 3339 / ISO 8601 internet date-time in UTC, whole seconds
/// (`2026-11-27T05:19:49Z`): the text `ISO8601DateFormatter()` gives with its default options,
/// byte for byte (`InternetDateTimeTests` holds the two equal over random moments).
///
/// Why not that formatter: on Linux it is CoreFoundation's ICU date formatter, made anew each
/// time (~1.2 ms of CPU, the largest single cost of writing a one-run evidence file in a
/// `perf record` of `frugal run -- /bin/true`); this is `gmtime_r` and a few digits.
public enum InternetDateTime {
    /// `date` in UTC, whole seconds as the formatter takes them: CoreFoundation hands ICU the
    /// time in milliseconds rounded to the nearest (`+ 0.5`), and ICU drops the milliseconds, so
    /// 04:09:24.9996 is 04:09:25 (found by the test against the formatter).
    public static func string(from date: Date) -> String {
        let milliseconds = floor((date.timeIntervalSinceReferenceDate + Date.timeIntervalBetween1970AndReferenceDate) * 1000 + 0.5)
        var seconds = time_t(floor(milliseconds / 1000))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return ISO8601DateFormatter().string(from: date) }
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(digits(parts.tm_year + 1900, 4))-\(digits(parts.tm_mon + 1, 2))-\(digits(parts.tm_mday, 2))"
            + "T\(digits(parts.tm_hour, 2)):\(digits(parts.tm_min, 2)):\(digits(parts.tm_sec, 2))Z"
    }
}
