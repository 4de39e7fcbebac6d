import Foundation
import FrugalCore

/// The two lanes that hold nearly all of a long run's entries (main-thread handlers, and the
/// `/proc` activity samples), written by hand: `JSONEncoder` spent about 80 % of a 1,000,000-event
/// report set's time in its generic machinery for them. The bytes are exactly `JSONEncoder`'s
/// (pretty-printed, keys sorted, numbers as it writes them: `description` without a trailing
/// `.0`); a chunk holding anything this does not write the same way (a number that is not finite,
/// a name with a character JSON escapes) goes back to `JSONEncoder`. `ReportJSONWriterTests`
/// holds the two equal.
///
/// A chunk is written straight into raw memory (``JSONBytes``) sized for it beforehand, each
/// member's key line made once per chunk: appending small arrays and strings to the sink's
/// buffer, a key at a time, was half of the writer's time (issue 28).
extension ReportJSONWriter {
    /// Appends `spans` at `indent` as the entries of a pretty-printed array; false (nothing
    /// appended) when one of them needs `JSONEncoder`.
    static func appendHandlers(_ spans: ArraySlice<HandlerSpan>, indent: Int, into sink: inout Sink) -> Bool {
        var names = 0
        for span in spans {
            guard span.start.isFinite, span.durationMs.isFinite, span.cpuMs?.isFinite ?? true,
                  span.waitingMs?.isFinite ?? true, isPlain(span.name) else { return false }
            names += span.name.utf8.count
        }
        let keys = KeyLines(["contextSwitches", "cpuMs", "durationMs", "name", "start", "waitingMs"], indent: indent)
        sink.appendRaw(maximumBytes: spans.count * keys.objectBound(members: 6) + names) { bytes in
            var firstObject = true
            for span in spans {
                bytes.openObject(indent: indent, first: firstObject)
                firstObject = false
                var first = true
                if let switches = span.contextSwitches { bytes.key(keys, 0, &first); bytes.integer(switches) }
                if let cpu = span.cpuMs { bytes.key(keys, 1, &first); bytes.number(cpu) }
                bytes.key(keys, 2, &first); bytes.number(span.durationMs)
                bytes.key(keys, 3, &first); bytes.quoted(span.name)
                bytes.key(keys, 4, &first); bytes.number(span.start)
                if let waiting = span.waitingMs { bytes.key(keys, 5, &first); bytes.number(waiting) }
                bytes.closeObject(indent: indent)
            }
        }
        return true
    }

    /// The same for activity samples.
    static func appendActivity(_ samples: ArraySlice<ActivitySample>, indent: Int, into sink: inout Sink) -> Bool {
        for sample in samples {
            guard sample.time.isFinite, sample.interval.isFinite, sample.cpuSeconds.isFinite else { return false }
        }
        let keys = KeyLines(["cpuSeconds", "interval", "residentBytes", "time", "wakeups"], indent: indent)
        sink.appendRaw(maximumBytes: samples.count * keys.objectBound(members: 5)) { bytes in
            var firstObject = true
            for sample in samples {
                bytes.openObject(indent: indent, first: firstObject)
                firstObject = false
                var first = true
                bytes.key(keys, 0, &first); bytes.number(sample.cpuSeconds)
                bytes.key(keys, 1, &first); bytes.number(sample.interval)
                if let resident = sample.residentBytes { bytes.key(keys, 2, &first); bytes.integer(resident) }
                bytes.key(keys, 3, &first); bytes.number(sample.time)
                bytes.key(keys, 4, &first); bytes.integer(sample.wakeups)
                bytes.closeObject(indent: indent)
            }
        }
        return true
    }

    /// Text JSON writes as it is: printable ASCII without `"` or `\` (`/` too: the encoder does
    /// not escape slashes).
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// Each member's line up to its value, `\n<indent + 2 spaces>"name" : `, made once.
    struct KeyLines {
        let lines: [[UInt8]]
        let indent: Int

        init(_ names: [String], indent: Int) {
            self.indent = indent
            let padding = String(repeating: " ", count: indent + 2)
            lines = names.map { Array("\n\(padding)\"\($0)\" : ".utf8) }
        }

        /// The most bytes an object of `members` members takes, its text values aside: `,\n`,
        /// the indent and `{`, each member's comma, key line and number (at most 32 bytes, as
        /// `-1.7976931348623157e+308` or `Int.min`), and `\n`, the indent and `}`.
        func objectBound(members: Int) -> Int {
            (2 + indent + 1) + (lines.map(\.count).max() ?? 0) * members + (1 + 32) * members + (1 + indent + 1) + 2
        }
    }

    /// A cursor over memory the sink has set aside, writing JSON's pieces without a check per
    /// byte: ``Sink/appendRaw(maximumBytes:_:)`` sizes the memory for the most a chunk can take.
    struct JSONBytes {
        var cursor: UnsafeMutablePointer<UInt8>

        mutating func byte(_ value: UInt8) {
            cursor.initialize(to: value)
            cursor += 1
        }

        mutating func bytes(_ values: UnsafeBufferPointer<UInt8>) {
            guard let base = values.baseAddress else { return }
            cursor.initialize(from: base, count: values.count)
            cursor += values.count
        }

        mutating func spaces(_ count: Int) {
            guard count > 0 else { return }
            cursor.initialize(repeating: UInt8(ascii: " "), count: count)
            cursor += count
        }

        /// `,\n` between objects, the indent and `{`.
        mutating func openObject(indent: Int, first: Bool) {
            if !first { byte(UInt8(ascii: ",")); byte(UInt8(ascii: "\n")) }
            spaces(indent)
            byte(UInt8(ascii: "{"))
        }

        mutating func closeObject(indent: Int) {
            byte(UInt8(ascii: "\n"))
            spaces(indent)
            byte(UInt8(ascii: "}"))
        }

        /// The comma before every member but the first, then the member's key line.
        mutating func key(_ keys: KeyLines, _ index: Int, _ first: inout Bool) {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            keys.lines[index].withUnsafeBufferPointer { bytes($0) }
        }

        /// A plain string (``ReportJSONWriter/isPlain(_:)``) in quotes.
        mutating func quoted(_ text: String) {
            byte(UInt8(ascii: "\""))
            var text = text
            text.withUTF8 { bytes($0) }
            byte(UInt8(ascii: "\""))
        }

        /// An integer as `String(value)` writes it.
        mutating func integer(_ value: Int) {
            guard value != Int.min else { return ascii(String(value)) }
            if value < 0 { byte(UInt8(ascii: "-")) }
            digits(UInt64(value.magnitude), count: JSONNumber.digitCount(UInt64(value.magnitude)))
        }

        /// A finite number as `JSONEncoder` writes it: `description`, less a trailing `.0`
        /// (``JSONNumber/decimal(_:)`` when it can say the same without formatting a string).
        mutating func number(_ value: Double) {
            if let decimal = JSONNumber.decimal(value) {
                if decimal.negative { byte(UInt8(ascii: "-")) }
                let count = JSONNumber.digitCount(decimal.digits)
                if decimal.scale == 0 {
                    digits(decimal.digits, count: count)
                } else if count > decimal.scale {
                    // 1234.5: the digits with a point `scale` places from the right.
                    let whole = decimal.digits / JSONNumber.powersOfTen[decimal.scale]
                    digits(whole, count: count - decimal.scale)
                    byte(UInt8(ascii: "."))
                    digits(decimal.digits - whole * JSONNumber.powersOfTen[decimal.scale], count: decimal.scale)
                } else {
                    // 0.0025: zeros after the point, then the digits.
                    byte(UInt8(ascii: "0"))
                    byte(UInt8(ascii: "."))
                    for _ in 0..<(decimal.scale - count) { byte(UInt8(ascii: "0")) }
                    digits(decimal.digits, count: count)
                }
                return
            }
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            ascii(text)
        }

        /// `value`'s last `count` decimal digits, leading zeros kept.
        mutating func digits(_ value: UInt64, count: Int) {
            var rest = value
            var at = cursor + count
            for _ in 0..<count {
                at -= 1
                at.initialize(to: UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            }
            cursor += count
        }

        mutating func ascii(_ text: String) {
            var text = text
            text.withUTF8 { bytes($0) }
        }
    }
}

extension ReportJSONWriter.Sink {
    /// Lets `body` write up to `maximumBytes` into memory of its own, then appends what it wrote
    /// (one copy a chunk: an array cannot be written past its count).
    mutating func appendRaw(maximumBytes: Int, _ body: (inout ReportJSONWriter.JSONBytes) -> Void) {
        let start = UnsafeMutablePointer<UInt8>.allocate(capacity: maximumBytes)
        defer { start.deallocate() }
        var bytes = ReportJSONWriter.JSONBytes(cursor: start)
        body(&bytes)
        let written = bytes.cursor - start
        precondition(written <= maximumBytes, "report.json writer: a chunk outgrew its bound")
        buffer.append(contentsOf: UnsafeBufferPointer(start: start, count: written))
    }
}

/// Numbers as `JSONEncoder` writes them, without formatting a string when it can.
enum JSONNumber {
    static let powersOfTen: [UInt64] = (0...19).map { (0..<$0).reduce(UInt64(1)) { product, _ in product * 10 } }
    static let doublePowersOfTen: [Double] = (0...6).map { Double(powersOfTen[$0]) }

    static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        while count < 20 && value >= powersOfTen[count] { count += 1 }
        return count
    }

    /// `value` as `digits` × 10^-`scale` (at most 6 places) when that decimal is exactly what
    /// `value.description` prints, less a trailing `.0`; nil when it cannot tell (the caller
    /// formats the string).
    ///
    /// `description` prints the shortest decimal that reads back as `value` (Swift's dtoa), in
    /// plain notation from 0.0001 up to 2^53. Here: the first scale from 0 to 6 whose rounded
    /// `value × 10^scale` divided back by 10^scale is `value` (IEEE division rounds correctly,
    /// so that decimal reads back as `value`). No shorter decimal reads back, or a smaller
    /// scale would have found it: below 2^50 the product is within 1/4 of the integer such a
    /// decimal would be, so rounding finds it; and no other decimal at this scale reads back,
    /// since two 10^-scale apart cannot both lie within half a unit in the last place of
    /// `value` at that size. Limited to 0.001 ≤ |value| < 2^50 / 10^scale, and 0.
    static func decimal(_ value: Double) -> (negative: Bool, digits: UInt64, scale: Int)? {
        let negative = value.sign == .minus
        let magnitude = value.magnitude
        if magnitude == 0 { return (negative, 0, 0) }
        guard magnitude >= 0.001, magnitude < 0x1p50 else { return nil }
        for scale in 0...6 {
            let scaled = (magnitude * doublePowersOfTen[scale]).rounded()
            guard scaled < 0x1p50 else { return nil }
            if scaled / doublePowersOfTen[scale] == magnitude {
                let digits = UInt64(scaled)
                // A trailing zero would mean a smaller scale read back too (it cannot, by the
                // above); the string is the judge if it ever did.
                return scale > 0 && digits % 10 == 0 ? nil : (negative, digits, scale)
            }
        }
        return nil
    }
}
