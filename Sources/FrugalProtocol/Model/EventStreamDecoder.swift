import Foundation

/// Splits the bytes of a workload's event pipe into events, hang stacks and malformed lines.
/// It holds no I/O, so it is tested and fuzzed on its own (`Fuzz/`); `EventStreamReader` feeds
/// it what it reads. Everything in the stream is the workload's to write, so it is bounded: a
/// line longer than `maxLineBytes` is dropped as malformed (the harness's memory does not grow
/// with a workload that never writes a newline), and a stack keeps `maxStackLines` lines.
public struct EventStreamDecoder {
    /// One thing found in the stream.
    public enum Item {
        case event(WorkloadEvent)
        /// The `backtrace_symbols_fd` lines between `@frugal-stack-begin <ns>` and `@frugal-stack-end`.
        case stack(time: UInt64, lines: [String])
        /// A line that is none of the above, cut to 200 characters.
        case malformed(String)
        /// A `hello` this version cannot decode, with the protocol version it names (0 when it
        /// names none): the harness ends the run naming both versions. Its line also comes as malformed.
        case unreadableHello(version: Int)
    }

    public static let maxLineBytes = 1 << 20
    public static let maxStackLines = 256
    static let stackBegin = "@frugal-stack-begin "
    static let stackEnd = "@frugal-stack-end"

    private var pending: [UInt8] = []
    /// How many bytes at the start of `pending` are known to hold no newline: each read searches
    /// only what is new (rescanning a long partial line on every read was quadratic in its length).
    private var scanned = 0
    /// Set while the rest of an overlong line is skipped up to its newline.
    private var skippingLine = false
    private var stack: (time: UInt64, lines: [String])?
    private let decoder = JSONDecoder()

    public init() {}

    /// Takes the next bytes read; returns what the complete lines among them held.
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes) -> [Item] where Bytes.Element == UInt8 {
        pending.append(contentsOf: bytes)
        var items: [Item] = []
        var lineStart = pending.startIndex
        var searchFrom = pending.startIndex + min(scanned, pending.count)
        while let newline = pending[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
            if skippingLine {
                skippingLine = false
            } else {
                decodeLine(pending[lineStart..<newline], into: &items)
            }
            lineStart = newline + 1
            searchFrom = lineStart
        }
        pending.removeSubrange(..<lineStart)
        scanned = pending.count
        if pending.count > Self.maxLineBytes {
            if !skippingLine {
                items.append(.malformed("a line longer than \(Self.maxLineBytes) bytes (dropped)"))
            }
            skippingLine = true
            pending.removeAll(keepingCapacity: false)
            scanned = 0
        }
        return items
    }

    private mutating func decodeLine(_ line: ArraySlice<UInt8>, into items: inout [Item]) {
        if line.first == UInt8(ascii: "{"), let problem = EventNumberBounds.violation(in: line) {
            items.append(.malformed("an event with a number out of range (\(problem)): " + String(String(decoding: line, as: UTF8.self).prefix(120))))
            return
        }
        if line.first == UInt8(ascii: "{"), let event = try? decoder.decode(WorkloadEvent.self, from: Data(line)) {
            items.append(.event(event))
            return
        }
        if line.first == UInt8(ascii: "{"), let version = Self.unreadableHelloVersion(Data(line), decoder: decoder) {
            items.append(.unreadableHello(version: version))
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(Self.stackBegin) {
            stack = (UInt64(text.dropFirst(Self.stackBegin.count)) ?? 0, [])
        } else if text == Self.stackEnd, let captured = stack {
            items.append(.stack(time: captured.time, lines: captured.lines))
            stack = nil
        } else if stack != nil {
            if stack!.lines.count < Self.maxStackLines { stack!.lines.append(String(text.prefix(1000))) }
        } else {
            items.append(.malformed(String(text.prefix(200))))
        }
    }

    /// The protocol version a `hello` line names when the line does not decode as an event (a
    /// newer or older protocol); nil when it is not a hello.
    public static func unreadableHelloVersion(_ line: Data, decoder: JSONDecoder) -> Int? {
        struct Envelope: Decodable {
            struct Payload: Decodable { var protocolVersion: Int? }
            var type: String
            var hello: Payload?
        }
        guard let envelope = try? decoder.decode(Envelope.self, from: line), envelope.type == "hello" else { return nil }
        return envelope.hello?.protocolVersion ?? 0
    }
}
