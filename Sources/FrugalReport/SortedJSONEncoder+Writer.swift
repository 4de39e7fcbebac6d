import Foundation

/// Writes a ``SortedJSONValue`` tree as swift-foundation's `JSONWriter` writes its tree on Linux
/// with `.sortedKeys` (Sources/FoundationEssentials/JSON/JSONWriter.swift): members in the
/// order of their keys' UTF-8 bytes; pretty-printed, `"key" : value` and two spaces a level,
/// an empty object or array as its brackets around an unindented blank line.
struct SortedJSONWriter {
    /// Deeper nesting is refused, as `JSONWriter` refuses it.
    static let maximumDepth = 512

    let pretty: Bool
    let escapesSlashes: Bool
    var bytes: [UInt8] = []
    private var indent = 0

    init(pretty: Bool, escapesSlashes: Bool) {
        self.pretty = pretty
        self.escapesSlashes = escapesSlashes
        bytes.reserveCapacity(4096)
    }

    mutating func write(_ value: SortedJSONValue, depth: Int) throws {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(var text): text.withUTF8 { bytes.append(contentsOf: $0) }
        case .string(let text): string(text)
        case .object(let object): try write(object, depth: depth + 1)
        case .array(let array): try write(array, depth: depth + 1)
        case .pending(let encoder): try write(encoder.value ?? .object(SortedJSONObject()), depth: depth)
        }
    }

    private mutating func write(_ array: SortedJSONArray, depth: Int) throws {
        guard depth < Self.maximumDepth else { throw Self.tooDeep() }
        bytes.append(UInt8(ascii: "["))
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent += 1
        }
        var first = true
        for element in array.values {
            if first {
                first = false
            } else {
                bytes.append(UInt8(ascii: ","))
                if pretty { bytes.append(UInt8(ascii: "\n")) }
            }
            if pretty { writeIndent() }
            try write(element, depth: depth)
        }
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent -= 1
            writeIndent()
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func write(_ object: SortedJSONObject, depth: Int) throws {
        guard depth < Self.maximumDepth else { throw Self.tooDeep() }
        let order = Self.sortedMembers(object.keys)
        bytes.append(UInt8(ascii: "{"))
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent += 1
            if !order.isEmpty { writeIndent() }
        }
        var first = true
        for index in order {
            if first {
                first = false
            } else {
                bytes.append(UInt8(ascii: ","))
                if pretty {
                    bytes.append(UInt8(ascii: "\n"))
                    writeIndent()
                }
            }
            string(object.keys[index])
            if pretty { append(" : ") } else { bytes.append(UInt8(ascii: ":")) }
            try write(object.values[index], depth: depth)
        }
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent -= 1
            writeIndent()
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The members to write, in key order: of a key set more than once, its last value (a
    /// dictionary keeps the last value set).
    static func sortedMembers(_ keys: [String]) -> [Int] {
        if keys.count < 2 { return Array(keys.indices) }
        let sorted = keys.indices.sorted { a, b in
            if keys[a] == keys[b] { return a < b }
            return keys[a].utf8.lexicographicallyPrecedes(keys[b].utf8)
        }
        var kept: [Int] = []
        kept.reserveCapacity(sorted.count)
        for (position, index) in sorted.enumerated() {
            if position + 1 < sorted.count, keys[sorted[position + 1]] == keys[index] { continue }
            kept.append(index)
        }
        return kept
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func writeIndent() {
        if indent > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent)) }
    }

    /// `text` quoted, escaped as `JSONWriter` escapes: `"` and `\`, `/` unless slashes are
    /// left alone, the short escapes of backspace, form feed, newline, return and tab, and
    /// `\u00xx` (lower-case hex) for the other control characters; everything else as it is.
    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var mark = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                let escape: StaticString
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "/") where escapesSlashes: escape = "\\/"
                case 0x08: escape = "\\b"
                case 0x0c: escape = "\\f"
                case 0x0a: escape = "\\n"
                case 0x0d: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x00...0x1f: escape = ""
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
                if escape.utf8CodeUnitCount > 0 {
                    append(escape)
                } else {
                    append("\\u00")
                    bytes.append(Self.hex(byte >> 4))
                    bytes.append(Self.hex(byte & 0xf))
                }
                mark = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    private static func tooDeep() -> EncodingError {
        EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "Unable to encode the given top-level value to JSON."))
    }
}
