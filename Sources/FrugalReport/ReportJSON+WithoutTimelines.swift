import Foundation
import FrugalCore

/// Reading a report for what a comparison reads: its runs' metrics and audits, not their
/// timelines. The timelines are most of a report's bytes and about half of `JSONDecoder`'s time
/// on it, and `frugal compare` never reads the baseline's (nor the head's, when it writes no
/// report): each run's `timeline` is replaced by an empty one before decoding.
extension ReportJSON {
    /// An empty timeline, as decoded: the members `Timeline` requires.
    static let emptyTimeline = Array(#"{"activity":[],"duration":0,"handlers":[],"states":[],"steps":[]}"#.utf8)

    /// `data` decoded with every run's timeline empty. Anything the skimming does not expect (not
    /// JSON, another shape, a compact baseline) is decoded whole, as ``decode(_:)`` does, and so
    /// is a skimmed document that does not decode: the error, if any, is the whole file's.
    public static func decodeWithoutTimelines(_ data: Data) throws -> Report {
        if let skimmed = withoutTimelines(data), let report = try? decode(skimmed) { return report }
        return try decode(data)
    }

    /// The bytes of `data` with the value of `runs[*].timeline` replaced by ``emptyTimeline``;
    /// nil when there is no such member or the bytes are not the JSON object expected.
    static func withoutTimelines(_ data: Data) -> Data? {
        data.withUnsafeBytes { raw -> Data? in
            var skim = JSONSkim(bytes: raw.bindMemory(to: UInt8.self))
            guard let ranges = skim.timelineRanges(), !ranges.isEmpty else { return nil }
            var result = Data()
            result.reserveCapacity(data.count)
            var position = 0
            for range in ranges {
                result.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position..<range.lowerBound]))
                result.append(contentsOf: emptyTimeline)
                position = range.upperBound
            }
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position...]))
            return result
        }
    }
}

/// A structural pass over JSON text: where values begin and end, without decoding them.
struct JSONSkim {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The byte ranges of each `timeline` value of the objects in the top-level `runs` array.
    mutating func timelineRanges() -> [Range<Int>]? {
        var ranges: [Range<Int>] = []
        let found = object { key, skim in
            guard key == "runs" else { return skim.skipValue() }
            return skim.array { skim in
                skim.object { key, skim in
                    guard key == "timeline" else { return skim.skipValue() }
                    let start = skim.index
                    guard skim.skipValue() else { return false }
                    ranges.append(start..<skim.index)
                    return true
                }
            }
        }
        skipSpace()
        return found && index == bytes.count ? ranges : nil
    }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
    }

    /// An object, each member's value left to `member` (with the key, unescaped only when it is
    /// plain), which must consume it.
    mutating func object(_ member: (String, inout JSONSkim) -> Bool) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return true }
        while true {
            skipSpace()
            let keyStart = index + 1
            guard skipString() else { return false }
            let keyBytes = UnsafeBufferPointer(rebasing: bytes[keyStart..<(index - 1)])
            // A key with an escape is never one looked for here: compared as written.
            let key = String(decoding: keyBytes, as: UTF8.self)
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipSpace()
            guard member(key, &self) else { return false }
            skipSpace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return true }
            return false
        }
    }

    /// An array, each element left to `element`, which must consume it.
    mutating func array(_ element: (inout JSONSkim) -> Bool) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return false }
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return true }
        while true {
            skipSpace()
            guard element(&self) else { return false }
            skipSpace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return true }
            return false
        }
    }

    /// Any value: a string, an object or array (to its matching end), or a scalar (to the next
    /// delimiter). The decoder judges the scalars' spelling afterwards.
    mutating func skipValue() -> Bool {
        skipSpace()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { index += 1; return true }
                default:
                    break
                }
                index += 1
            }
            return false
        default:
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { break }
                index += 1
            }
            return index > start
        }
    }

    /// A string from its opening quote to just past its closing one.
    mutating func skipString() -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): index += 1; return true
            default: index += 1
            }
        }
        return false
    }
}
