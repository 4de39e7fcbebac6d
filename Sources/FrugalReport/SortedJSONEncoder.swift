import Foundation

/// Encodes a value to exactly the bytes `JSONEncoder` writes with `.sortedKeys` (and, as set,
/// `.prettyPrinted`, `.withoutEscapingSlashes` and `.convertToString` for non-finite numbers),
/// at a fraction of its cost on the first use of each type.
///
/// `JSONEncoder` asks of every value it wraps whether it is a `Date`, a `URL`, a `Decimal` or a
/// `Data` with `as?`. Each first cast from a new type makes the Swift runtime scan every
/// protocol-conformance record of the binary (~10 µs each in this 65 MB binary), and a report
/// set holds a few hundred types: most of the runtime's share of a short `frugal run`'s fixed
/// cost (issue 31). This encoder tells those types apart by their metatypes (a pointer
/// comparison) instead. It builds the same tree `JSONEncoder` builds and writes it as
/// swift-foundation's `JSONWriter` does on Linux: members sorted by the UTF-8 bytes of their
/// keys, the last value of a key written twice kept, numbers as their `description` less a
/// trailing `.0`, strings escaped alike. `SortedJSONEncoderTests` holds the two byte-equal on
/// real evidence and reports and on the edge cases.
///
/// The default strategies only (dates `.deferredToDate`, data `.base64`, keys as they are).
public struct SortedJSONEncoder {
    /// `.prettyPrinted`: two-space indentation and `"key" : value`.
    public var prettyPrinted: Bool
    /// `.withoutEscapingSlashes`: `/` written as it is, not `\/`.
    public var escapesSlashes: Bool
    /// `.convertToString(positiveInfinity:negativeInfinity:nan:)`; nil throws as `.throw` does.
    public var nonConformingFloats: (positiveInfinity: String, negativeInfinity: String, nan: String)?
    /// Given to every value's `encode(to:)`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init(prettyPrinted: Bool = false, escapesSlashes: Bool = true,
                nonConformingFloats: (positiveInfinity: String, negativeInfinity: String, nan: String)? = nil) {
        self.prettyPrinted = prettyPrinted
        self.escapesSlashes = escapesSlashes
        self.nonConformingFloats = nonConformingFloats
    }

    /// `value` as JSON; throws what `JSONEncoder` throws (a value that encodes nothing at the
    /// top, a number JSON cannot hold without a string for it).
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try encodeBytes(value))
    }

    /// The same bytes, as an array.
    public func encodeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        let options = SortedJSONOptions(nonConformingFloats: nonConformingFloats, userInfo: userInfo)
        let encoder = SortedJSONValueEncoder(options: options, parent: nil, key: nil)
        guard let tree = try encoder.wrapTopLevel(value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        var writer = SortedJSONWriter(pretty: prettyPrinted, escapesSlashes: escapesSlashes)
        try writer.write(tree, depth: 0)
        return writer.bytes
    }
}

/// What every encoder of one document shares.
final class SortedJSONOptions {
    let nonConformingFloats: (positiveInfinity: String, negativeInfinity: String, nan: String)?
    let userInfo: [CodingUserInfoKey: Any]

    init(nonConformingFloats: (positiveInfinity: String, negativeInfinity: String, nan: String)?, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.nonConformingFloats = nonConformingFloats
        self.userInfo = userInfo
    }
}

/// A node of the encoded tree: `JSONEncoder`'s `JSONEncoderValue`, with containers by reference
/// so a nested container can be filled after it is placed, and an encoder whose value is taken
/// when the tree is written (`superEncoder`, which `JSONEncoder` resolves when it is released).
enum SortedJSONValue {
    case null
    case bool(Bool)
    /// The number's text, as written.
    case number(String)
    case string(String)
    case object(SortedJSONObject)
    case array(SortedJSONArray)
    case pending(SortedJSONValueEncoder)
}

/// An object's members in the order encoded; sorted, and a repeated key's last value kept, when written.
final class SortedJSONObject {
    var keys: [String] = []
    var values: [SortedJSONValue] = []

    func set(_ key: String, _ value: SortedJSONValue) {
        keys.append(key)
        values.append(value)
    }

    /// The object at `key` (a nested container asked for twice gets the same one), or a new one.
    func object(at key: String) -> SortedJSONObject {
        if let index = keys.lastIndex(of: key), case .object(let object) = values[index] { return object }
        let object = SortedJSONObject()
        set(key, .object(object))
        return object
    }

    func array(at key: String) -> SortedJSONArray {
        if let index = keys.lastIndex(of: key), case .array(let array) = values[index] { return array }
        let array = SortedJSONArray()
        set(key, .array(array))
        return array
    }
}

final class SortedJSONArray {
    var values: [SortedJSONValue] = []
}

/// One value's `Encoder`: it holds what the value encoded.
final class SortedJSONValueEncoder: Encoder {
    let options: SortedJSONOptions
    let parent: SortedJSONValueEncoder?
    let key: (any CodingKey)?
    var value: SortedJSONValue?

    init(options: SortedJSONOptions, parent: SortedJSONValueEncoder?, key: (any CodingKey)?) {
        self.options = options
        self.parent = parent
        self.key = key
    }

    /// Made from the chain of parents only when asked for (an error, a custom `encode(to:)`).
    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: SortedJSONValueEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: SortedJSONObject
        if case .object(let existing) = value {
            object = existing
        } else {
            precondition(value == nil, "Attempt to push new keyed encoding container when already previously encoded at this path.")
            object = SortedJSONObject()
            value = .object(object)
        }
        return KeyedEncodingContainer(SortedJSONKeyedContainer<Key>(encoder: self, object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: SortedJSONArray
        if case .array(let existing) = value {
            array = existing
        } else {
            precondition(value == nil, "Attempt to push new unkeyed encoding container when already previously encoded at this path.")
            array = SortedJSONArray()
            value = .array(array)
        }
        return SortedJSONUnkeyedContainer(encoder: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SortedJSONSingleValueContainer(encoder: self) }

    /// The top value; nil when it encoded nothing.
    func wrapTopLevel<T: Encodable>(_ value: T) throws -> SortedJSONValue? {
        if let special = try special(value, key: nil) { return special }
        try value.encode(to: self)
        return self.value
    }

    /// `value` as a node, `key` (a member's key or an element's index) its place in the path.
    func wrap<T: Encodable>(_ value: T, key: any CodingKey) throws -> SortedJSONValue {
        if let special = try special(value, key: key) { return special }
        let encoder = SortedJSONValueEncoder(options: options, parent: self, key: key)
        try value.encode(to: encoder)
        return encoder.value ?? .object(SortedJSONObject())
    }

    /// What `JSONEncoder` writes its own way (a `URL` as its text, `Data` in base 64, a `Decimal`
    /// as its digits), and the plain values it would wrap through a container anyway.
    private func special<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> SortedJSONValue? {
        if T.self == String.self { return .string(value as! String) }
        if T.self == Double.self { return try number(value as! Double, key: key) }
        if T.self == Int.self { return .number(String(value as! Int)) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
        if T.self == Decimal.self { return .number((value as! Decimal).description) }
        return nil
    }

    func number(_ value: Double, key: (any CodingKey)?) throws -> SortedJSONValue {
        guard value.isFinite else { return try nonConforming(value, infinite: value.isInfinite, negative: value < 0, key: key) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }

    func number(_ value: Float, key: (any CodingKey)?) throws -> SortedJSONValue {
        guard value.isFinite else { return try nonConforming(value, infinite: value.isInfinite, negative: value < 0, key: key) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }

    private func nonConforming<F: BinaryFloatingPoint>(_ value: F, infinite: Bool, negative: Bool, key: (any CodingKey)?) throws -> SortedJSONValue {
        if let strings = options.nonConformingFloats {
            return .string(!infinite ? strings.nan : negative ? strings.negativeInfinity : strings.positiveInfinity)
        }
        throw EncodingError.invalidValue(value, .init(codingPath: codingPath + (key.map { [$0] } ?? []),
                                                      debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
    }
}

struct SortedJSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: SortedJSONValueEncoder
    let object: SortedJSONObject

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { object.set(key.stringValue, try encoder.number(value, key: key)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { object.set(key.stringValue, try encoder.number(value, key: key)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { object.set(key.stringValue, try encoder.wrap(value, key: key)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = SortedJSONValueEncoder(options: encoder.options, parent: encoder, key: key)
        return KeyedEncodingContainer(SortedJSONKeyedContainer<NestedKey>(encoder: nested, object: object.object(at: key.stringValue)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = SortedJSONValueEncoder(options: encoder.options, parent: encoder, key: key)
        return SortedJSONUnkeyedContainer(encoder: nested, array: object.array(at: key.stringValue))
    }

    mutating func superEncoder() -> any Encoder { superEncoder(key: SortedJSONKey(stringValue: "super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(key: key) }

    private func superEncoder(key: any CodingKey) -> any Encoder {
        let nested = SortedJSONValueEncoder(options: encoder.options, parent: encoder, key: key)
        object.set(key.stringValue, .pending(nested))
        return nested
    }
}

struct SortedJSONUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: SortedJSONValueEncoder
    let array: SortedJSONArray

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.values.count }

    private var nextKey: SortedJSONKey { SortedJSONKey(index: array.values.count) }

    mutating func encodeNil() throws { array.values.append(.null) }
    mutating func encode(_ value: Bool) throws { array.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.values.append(try encoder.number(value, key: nextKey)) }
    mutating func encode(_ value: Float) throws { array.values.append(try encoder.number(value, key: nextKey)) }
    mutating func encode(_ value: Int) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int128) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt128) throws { array.values.append(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { array.values.append(try encoder.wrap(value, key: nextKey)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = SortedJSONValueEncoder(options: encoder.options, parent: encoder, key: nextKey)
        let object = SortedJSONObject()
        array.values.append(.object(object))
        return KeyedEncodingContainer(SortedJSONKeyedContainer<NestedKey>(encoder: nested, object: object))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = SortedJSONValueEncoder(options: encoder.options, parent: encoder, key: nextKey)
        let inner = SortedJSONArray()
        array.values.append(.array(inner))
        return SortedJSONUnkeyedContainer(encoder: nested, array: inner)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = SortedJSONValueEncoder(options: encoder.options, parent: encoder, key: nextKey)
        array.values.append(.pending(nested))
        return nested
    }
}

struct SortedJSONSingleValueContainer: SingleValueEncodingContainer {
    let encoder: SortedJSONValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: SortedJSONValue) {
        precondition(encoder.value == nil, "Attempt to encode value through single value container when previously value already encoded.")
        encoder.value = value
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try encoder.number(value, key: nil)) }
    mutating func encode(_ value: Float) throws { set(try encoder.number(value, key: nil)) }
    mutating func encode(_ value: Int) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int128) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt128) throws { set(.number(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        precondition(encoder.value == nil, "Attempt to encode value through single value container when previously value already encoded.")
        // Encoded in place, as `JSONEncoder` does: the path does not grow.
        encoder.value = try encoder.wrapTopLevel(value) ?? .object(SortedJSONObject())
    }
}

/// A key made up by the encoder: `super`, or an element's index.
struct SortedJSONKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = "\(intValue)"; self.intValue = intValue }
    init(index: Int) { self.stringValue = "Index \(index)"; self.intValue = index }
}
