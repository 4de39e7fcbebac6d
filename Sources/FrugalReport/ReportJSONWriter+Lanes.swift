import Foundation
import FrugalCore

/// The two lanes that hold nearly all of a long run's entries (main-thread handlers, and the
/// `/proc` activity samples), written by hand: `JSONEncoder` spent about 80 % of a 1,000,000-event
/// report set's time in its generic machinery for them. The bytes are exactly `JSONEncoder`'s
/// (pretty-printed, keys sorted, numbers as it writes them: `description` without a trailing
/// `.0`); a chunk holding anything this does not write the same way (a number that is not finite,
/// a name with a character JSON escapes) goes back to `JSONEncoder`. `ReportJSONWriterTests`
/// holds the two equal.
extension ReportJSONWriter {
    /// Appends `spans` at `indent` as the entries of a pretty-printed array; false (nothing
    /// appended) when one of them needs `JSONEncoder`.
    static func appendHandlers(_ spans: ArraySlice<HandlerSpan>, indent: Int, into sink: inout Sink) -> Bool {
        for span in spans {
            guard span.start.isFinite, span.durationMs.isFinite, span.cpuMs?.isFinite ?? true,
                  span.waitingMs?.isFinite ?? true, isPlain(span.name) else { return false }
        }
        var first = true
        for span in spans {
            var object = ObjectWriter(sink: &sink, indent: indent, first: first)
            if let switches = span.contextSwitches { object.member("contextSwitches", switches, &sink) }
            if let cpu = span.cpuMs { object.member("cpuMs", cpu, &sink) }
            object.member("durationMs", span.durationMs, &sink)
            object.member("name", plain: span.name, &sink)
            object.member("start", span.start, &sink)
            if let waiting = span.waitingMs { object.member("waitingMs", waiting, &sink) }
            object.close(&sink)
            first = false
        }
        return true
    }

    /// The same for activity samples.
    static func appendActivity(_ samples: ArraySlice<ActivitySample>, indent: Int, into sink: inout Sink) -> Bool {
        for sample in samples {
            guard sample.time.isFinite, sample.interval.isFinite, sample.cpuSeconds.isFinite else { return false }
        }
        var first = true
        for sample in samples {
            var object = ObjectWriter(sink: &sink, indent: indent, first: first)
            object.member("cpuSeconds", sample.cpuSeconds, &sink)
            object.member("interval", sample.interval, &sink)
            if let resident = sample.residentBytes { object.member("residentBytes", resident, &sink) }
            object.member("time", sample.time, &sink)
            object.member("wakeups", sample.wakeups, &sink)
            object.close(&sink)
            first = false
        }
        return true
    }

    /// Text JSON writes as it is: printable ASCII without `"` or `\` (`/` too: the encoder does
    /// not escape slashes).
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// One object of an array, one member a line, as `JSONEncoder` pretty-prints it, appended
    /// straight to the sink's buffer.
    struct ObjectWriter {
        let indent: Int
        var members = 0

        init(sink: inout Sink, indent: Int, first: Bool) {
            self.indent = indent
            if !first { sink.buffer.append(contentsOf: ",\n".utf8) }
            sink.spaces(indent)
            sink.buffer.append(UInt8(ascii: "{"))
        }

        private mutating func key(_ name: StaticString, _ sink: inout Sink) {
            sink.buffer.append(contentsOf: (members == 0 ? "\n" : ",\n").utf8)
            sink.spaces(indent + 2)
            sink.buffer.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { sink.buffer.append(contentsOf: $0) }
            sink.buffer.append(contentsOf: "\" : ".utf8)
            members += 1
        }

        mutating func member(_ name: StaticString, _ value: Double, _ sink: inout Sink) {
            key(name, &sink)
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            sink.buffer.append(contentsOf: text.utf8)
        }

        mutating func member(_ name: StaticString, _ value: Int, _ sink: inout Sink) {
            key(name, &sink)
            sink.buffer.append(contentsOf: String(value).utf8)
        }

        mutating func member(_ name: StaticString, plain value: String, _ sink: inout Sink) {
            key(name, &sink)
            sink.buffer.append(UInt8(ascii: "\""))
            sink.buffer.append(contentsOf: value.utf8)
            sink.buffer.append(UInt8(ascii: "\""))
        }

        func close(_ sink: inout Sink) {
            sink.buffer.append(UInt8(ascii: "\n"))
            sink.spaces(indent)
            sink.buffer.append(UInt8(ascii: "}"))
        }
    }
}
