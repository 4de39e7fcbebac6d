/// The protobuf wire format, write side only: what a Perfetto trace needs and nothing more.
///
/// Why by hand and not swift-protobuf: the trace writes about twenty fields of eight messages
/// and never reads one, and writing needs three encodings (varint, 64-bit, length-delimited;
/// https://protobuf.dev/programming-guides/encoding/). swift-protobuf's runtime would add its
/// ~100 source files to every clean build and CI run, and its generated code needs
/// protoc-gen-swift, whose build took 9.5 minutes here. The bytes are checked by an independent
/// reader: the tests parse every trace with Google's protobuf runtime and Perfetto's own
/// published schema (the `perfetto` Python package's `perfetto_trace_pb2`).
struct ProtobufWriter {
    /// The encoded bytes so far.
    private(set) var bytes: [UInt8] = []

    /// The wire types this writer uses.
    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
    }

    init() {}

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func key(_ field: Int, _ wireType: WireType) {
        varint(UInt64(field) << 3 | wireType.rawValue)
    }

    /// A `uint32`, `uint64` or enum field.
    mutating func uint(_ field: Int, _ value: UInt64) {
        key(field, .varint)
        varint(value)
    }

    /// An `int32` or `int64` field: two's complement as a varint (negative numbers take ten bytes;
    /// `int`, unlike `sint`, is not zigzag-encoded).
    mutating func int(_ field: Int, _ value: Int64) {
        key(field, .varint)
        varint(UInt64(bitPattern: value))
    }

    mutating func bool(_ field: Int, _ value: Bool) {
        uint(field, value ? 1 : 0)
    }

    /// A `double` field: IEEE 754, little-endian.
    mutating func double(_ field: Int, _ value: Double) {
        fixed64(field, value.bitPattern)
    }

    /// A `fixed64` field, little-endian.
    mutating func fixed64(_ field: Int, _ value: UInt64) {
        key(field, .fixed64)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A `string` field: its UTF-8 bytes.
    mutating func string(_ field: Int, _ value: String) {
        key(field, .lengthDelimited)
        let utf8 = Array(value.utf8)
        varint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Appends bytes that are already encoded (a packet built on its own).
    mutating func append(_ encoded: [UInt8]) {
        bytes.append(contentsOf: encoded)
    }

    /// An embedded message field, written by `body` into its own buffer so its length can go first.
    mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        key(field, .lengthDelimited)
        varint(UInt64(nested.bytes.count))
        bytes.append(contentsOf: nested.bytes)
    }
}
