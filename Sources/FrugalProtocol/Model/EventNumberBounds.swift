/// The numbers a workload may put in an event line, checked on the line's bytes before it is
/// decoded. The event stream is the workload's to write, so it is untrusted input: a crafted
/// `start` near 2⁶⁴ or a `length` of 2⁶² once overflowed the harness's arithmetic (a hang
/// deadline, a sum of write lengths, a wall time) and killed `frugal run` with SIGILL, leaving
/// the run's sandbox and cgroup behind. A line with a number out of range is rejected as
/// malformed, with the reason, and never reaches the analysis.
///
/// The bounds, with the arithmetic they leave room for:
/// - times (monotonic ns: `t`, `time`, `start`, `end`, `capturedAt`, `handlerStart`, `handlerEnd`):
///   at most 2⁶² (146 years of uptime), so a time plus any limit or duration stays in `UInt64`;
/// - identifiers (`address`, `id`, `thread`, `mainThreadID`, `task`, `pid`, `sequence`): whatever
///   their type decodes (they are compared, never added);
/// - every other number (bytes, lengths, offsets, counts, durations): |x| ≤ 2⁴⁰ (1 TiB, 18 minutes
///   in ns), so a sum over the at most ``EventNumberBounds/maximumEventsPerRun`` events of a run
///   stays below 2⁶².
public enum EventNumberBounds {
    public static let maximumTime: UInt64 = 1 << 62
    public static let maximumQuantity: UInt64 = 1 << 40
    /// The events one run's stream may hold (the rest are dropped, and the run says so).
    public static let maximumEventsPerRun = 1 << 22
    /// The bytes of event lines one run's stream may bring (the rest are dropped, and the run
    /// says so): with lines of up to 1 MiB, the event count alone let the harness's memory grow
    /// to terabytes (1,000 marks of 1 MB held 991 MB). 256 MiB is 256 KiB of events a second for a
    /// 17-minute run; a FrugalKit app's handler record is about 200 bytes.
    public static let maximumEventBytesPerRun = 256 << 20

    static let timeKeys: Set<String> = ["t", "time", "start", "end", "capturedAt", "handlerStart", "handlerEnd"]
    static let identifierKeys: Set<String> = ["address", "id", "thread", "mainThreadID", "task", "pid", "sequence"]

    /// Why the JSON line's numbers are out of range (the key and the bound), or nil when they are
    /// all within bounds. Scans the bytes once; strings (and numbers inside them) are skipped.
    public static func violation<Line: Collection>(in line: Line) -> String? where Line.Element == UInt8 {
        var lastString: [UInt8] = []
        var key: [UInt8]?
        var iterator = line.makeIterator()
        var pending: UInt8? = nil
        func next() -> UInt8? {
            if let byte = pending { pending = nil; return byte }
            return iterator.next()
        }
        while let byte = next() {
            switch byte {
            case UInt8(ascii: "\""):
                lastString.removeAll(keepingCapacity: true)
                var escaped = false
                while let inner = next() {
                    if escaped { escaped = false; if lastString.count < 64 { lastString.append(inner) }; continue }
                    if inner == UInt8(ascii: "\\") { escaped = true; continue }
                    if inner == UInt8(ascii: "\"") { break }
                    if lastString.count < 64 { lastString.append(inner) }
                }
                key = nil
            case UInt8(ascii: ":"):
                key = lastString
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var digits: [UInt8] = [byte]
                while let more = next() {
                    if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(more) || more == UInt8(ascii: ".") || more == UInt8(ascii: "e")
                        || more == UInt8(ascii: "E") || more == UInt8(ascii: "+") || more == UInt8(ascii: "-") {
                        if digits.count < 64 { digits.append(more) }
                    } else {
                        pending = more
                        break
                    }
                }
                let name = key.map { String(decoding: $0, as: UTF8.self) } ?? ""
                if let problem = check(String(decoding: digits, as: UTF8.self), key: name) { return problem }
            default:
                break
            }
        }
        return nil
    }

    static func check(_ number: String, key: String) -> String? {
        if identifierKeys.contains(key) { return nil }
        guard let value = Double(number), value.isFinite else { return "\(key): \(number) is not a finite number" }
        let bound = timeKeys.contains(key) ? maximumTime : maximumQuantity
        if timeKeys.contains(key) && value < 0 { return "\(key): \(number) is a negative time" }
        if value.magnitude > Double(bound) { return "\(key): \(number) is out of range (at most \(bound))" }
        return nil
    }
}
