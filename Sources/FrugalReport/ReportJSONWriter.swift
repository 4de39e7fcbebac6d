import Foundation
import FrugalCore

/// Writes `report.json` as it is encoded, so memory does not grow with the number of events.
///
/// `JSONEncoder` builds the whole document before it returns it: a 1,000,000-event report
/// peaked at 866 MB. This writer encodes the report without its runs, each run without its
/// timeline lanes, and each lane a few thousand entries at a time, and writes the pieces in
/// order through a small buffer. The bytes are exactly those of ``ReportJSON/encode(_:)``
/// (pretty-printed, keys sorted): a test holds the two equal. A lane it does not know is
/// encoded with its run, which is still correct, only not streamed.
public enum ReportJSONWriter {
    /// Lane entries encoded at a time: big enough that encoder set-up is amortised, small
    /// enough that a chunk's encoding stays a few MB.
    static let chunkSize = 4096
    /// Workload results encoded at a time: each holds every audit and metric of its workload.
    static let resultChunkSize = 16

    /// Writes `report` to `url` (created or truncated).
    public static func write(_ report: Report, to url: URL) throws {
        // open(2) itself, for its errno: Foundation's createFile says only that it failed.
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ReportError("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        defer { try? handle.close() }
        try write(report, to: handle)
    }

    /// Writes `report` to an open file (standard output, say), ending with a newline.
    public static func write(_ report: Report, to handle: FileHandle) throws {
        var sink = Sink(handle: handle)
        do {
            try write(report, into: &sink)
        } catch {
            // The writes already handed off end before the caller closes the file.
            sink.writer?.drain()
            throw error
        }
        try sink.finish()
    }

    /// The same bytes in memory, for tests and small reports.
    static func encode(_ report: Report) throws -> Data {
        var sink = Sink(handle: nil)
        try write(report, into: &sink)
        return Data(sink.buffer)
    }

    private static func write(_ report: Report, into sink: inout Sink) throws {
        let encoder = ReportJSON.makeEncoder()
        var shell = report
        shell.runs = []
        // The workloads' results too, a few at a time: encoded with the shell, a suite of 1,000
        // programs held about 100 MB of the encoder's tree and text at once, half the harness's peak.
        shell.results = []
        let text = [UInt8](try encoder.encode(shell))
        let runs = Splice(path: ["runs"], in: text) { (sink: inout Sink, indent: Int) in
            try writeArray(report.runs.indices, into: &sink, indent: indent) { sink, range, indent in
                for index in range {
                    if index > range.lowerBound { sink.append(",\n") }
                    sink.spaces(indent)
                    try writeRun(report.runs[index], encoder: encoder, into: &sink, extra: indent)
                }
            }
        }
        guard let runs else { throw ReportError("report.json writer: cannot find runs in the encoded report") }
        var splices = [runs]
        if !report.results.isEmpty {
            guard let results = Splice(path: ["results"], in: text, write: { (sink: inout Sink, indent: Int) in
                try writeElements(report.results, encoder: encoder, into: &sink, indent: indent, chunk: resultChunkSize)
            }) else { throw ReportError("report.json writer: cannot find results in the encoded report") }
            splices.append(results)
        }
        try writeSpliced(text, splices: splices, into: &sink, extra: 0)
        sink.append("\n")
    }

    private static func writeRun(_ run: RunReport, encoder: JSONEncoder, into sink: inout Sink, extra: Int) throws {
        var shell = run
        var lanes: [(path: [String], write: (inout Sink, Int) throws -> Void)] = []
        func lane<Element: Encodable>(_ keyPath: WritableKeyPath<Timeline, [Element]>, _ name: String) {
            let elements = run.timeline[keyPath: keyPath]
            guard !elements.isEmpty else { return }
            shell.timeline[keyPath: keyPath] = []
            lanes.append((["timeline", name], { (sink: inout Sink, indent: Int) in try writeElements(elements, encoder: encoder, into: &sink, indent: indent) }))
        }
        func optionalLane<Element: Encodable>(_ keyPath: WritableKeyPath<Timeline, [Element]?>, _ name: String) {
            guard let elements = run.timeline[keyPath: keyPath], !elements.isEmpty else { return }
            shell.timeline[keyPath: keyPath] = []
            lanes.append((["timeline", name], { (sink: inout Sink, indent: Int) in try writeElements(elements, encoder: encoder, into: &sink, indent: indent) }))
        }
        lane(\.states, "states")
        if !run.timeline.handlers.isEmpty {
            shell.timeline.handlers = []
            lanes.append((["timeline", "handlers"], { (sink: inout Sink, indent: Int) in
                try writeElements(run.timeline.handlers, encoder: encoder, into: &sink, indent: indent, fast: appendHandlers) }))
        }
        lane(\.steps, "steps")
        if !run.timeline.activity.isEmpty {
            shell.timeline.activity = []
            lanes.append((["timeline", "activity"], { (sink: inout Sink, indent: Int) in
                try writeElements(run.timeline.activity, encoder: encoder, into: &sink, indent: indent, fast: appendActivity) }))
        }
        optionalLane(\.disk, "disk")
        optionalLane(\.hangs, "hangs")
        optionalLane(\.memory, "memory")
        optionalLane(\.memoryMarks, "memoryMarks")
        if let radio = run.timeline.radio {
            if !radio.intervals.isEmpty {
                shell.timeline.radio?.intervals = []
                lanes.append((["timeline", "radio", "intervals"], { (sink: inout Sink, indent: Int) in
                    try writeElements(radio.intervals, encoder: encoder, into: &sink, indent: indent) }))
            }
            if !radio.transfers.isEmpty {
                shell.timeline.radio?.transfers = []
                lanes.append((["timeline", "radio", "transfers"], { (sink: inout Sink, indent: Int) in
                    try writeElements(radio.transfers, encoder: encoder, into: &sink, indent: indent) }))
            }
        }
        let text = [UInt8](try encoder.encode(shell))
        var splices: [Splice] = []
        for lane in lanes {
            guard let splice = Splice(path: lane.path, in: text, write: lane.write) else {
                throw ReportError("report.json writer: cannot find \(lane.path.joined(separator: ".")) in the encoded run")
            }
            splices.append(splice)
        }
        try writeSpliced(text, splices: splices, into: &sink, extra: extra)
    }

    /// Writes `elements` as the pretty-printed array `JSONEncoder` would, a chunk at a time.
    /// `fast`, when given, writes a chunk by hand (``appendHandlers(_:indent:into:)``) or declines.
    private static func writeElements<Element: Encodable>(_ elements: [Element], encoder: JSONEncoder, into sink: inout Sink, indent: Int,
                                                          chunk: Int = chunkSize,
                                                          fast: ((ArraySlice<Element>, Int, inout Sink) -> Bool)? = nil) throws {
        try writeArray(elements.indices, into: &sink, indent: indent, chunk: chunk) { sink, range, indent in
            if let fast, fast(elements[range], indent, &sink) { return }
            // Encoded as an array, the entries sit at 2 spaces between "[\n" and "\n]".
            let encoded = try encoder.encode(Array(elements[range]))
            sink.spaces(indent - 2)
            encoded.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                sink.append(UnsafeBufferPointer(rebasing: bytes[2..<(bytes.count - 2)]), extra: indent - 2)
            }
        }
    }

    /// `[`, the entries of `indices` in chunks (each chunk written by `body` at `indent + 2`),
    /// and `]` at `indent`; an empty array as `JSONEncoder` writes one.
    private static func writeArray(_ indices: Range<Int>, into sink: inout Sink, indent: Int, chunk: Int = chunkSize,
                                   body: (inout Sink, Range<Int>, Int) throws -> Void) throws {
        sink.append("[\n")
        var start = indices.lowerBound
        while start < indices.upperBound {
            if start > indices.lowerBound { sink.append(",\n") }
            let end = min(start + chunk, indices.upperBound)
            try body(&sink, start..<end, indent + 2)
            start = end
            try sink.flushIfFull()
        }
        sink.append("\n")
        sink.spaces(indent)
        sink.append("]")
    }

    /// Writes `text` (a value encoded alone, its top at indent 0) at `extra` indentation, with
    /// each splice's empty array replaced by what the splice writes.
    private static func writeSpliced(_ text: [UInt8], splices: [Splice], into sink: inout Sink, extra: Int) throws {
        var position = 0
        for splice in splices.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            sink.append(text[position..<splice.range.lowerBound], extra: extra)
            try splice.write(&sink, extra + splice.indent)
            position = splice.range.upperBound
        }
        sink.append(text[position...], extra: extra)
    }

    /// Where an emptied array sits in a pretty-printed encoding, and what goes there instead.
    private struct Splice {
        /// The bytes of `[\n\n<indent>]`.
        var range: Range<Int>
        /// The member's indentation in the encoding.
        var indent: Int
        var write: (inout Sink, Int) throws -> Void

        /// Finds member `path` (object keys from the top), whose value must be an empty array.
        init?(path: [String], in text: [UInt8], write: @escaping (inout Sink, Int) throws -> Void) {
            var range = 0..<text.count
            for (depth, key) in path.enumerated() {
                let indent = 2 * (depth + 1)
                let last = depth == path.count - 1
                // Members of an object sit one per line at their depth; string values never hold
                // a raw newline, so this line is the member and nothing else.
                let opener = Array(("\n" + String(repeating: " ", count: indent) + "\"\(key)\" : " + (last ? "[\n\n" : "{\n")).utf8)
                guard let start = Self.find(opener, in: text, range: range) else { return nil }
                let closer = Array(("\n" + String(repeating: " ", count: indent) + (last ? "]" : "}")).utf8)
                guard let end = Self.find(closer, in: text, range: (start + opener.count - 1)..<range.upperBound) else { return nil }
                if last {
                    // Only an emptied array is replaced: "[\n\n" then its "]" straight after.
                    guard end == start + opener.count - 1 else { return nil }
                    self.range = (start + opener.count - 3)..<(end + closer.count)
                    self.indent = indent
                    self.write = write
                    return
                }
                range = (start + opener.count - 1)..<(end + closer.count)
            }
            return nil
        }

        static func find(_ needle: [UInt8], in text: [UInt8], range: Range<Int>) -> Int? {
            guard needle.count <= range.count, let first = needle.first else { return nil }
            var index = range.lowerBound
            let last = range.upperBound - needle.count
            while index <= last {
                if text[index] == first && text[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }
    }

    /// A write buffer that indents what it is given. Full buffers go to the file on a thread of
    /// their own (``BackgroundWriter``), so the kernel's copy of one megabyte overlaps the
    /// encoding of the next: a fifth of the writer's time was the copy.
    struct Sink {
        let writer: BackgroundWriter?
        var buffer: [UInt8] = []
        /// The spaces of the last indentation, kept to append in one go.
        var padding: [UInt8] = []
        static let flushSize = 1 << 20

        init(handle: FileHandle?) {
            writer = handle.map(BackgroundWriter.init)
            buffer.reserveCapacity(handle == nil ? 0 : Self.flushSize + 65_536)
        }

        mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

        mutating func spaces(_ count: Int) {
            if count > 0 { buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) }
        }

        /// Appends `bytes`, adding `extra` spaces after each newline.
        mutating func append(_ bytes: ArraySlice<UInt8>, extra: Int) {
            bytes.withUnsafeBufferPointer { append($0, extra: extra) }
        }

        /// The same from raw memory (an encoder's `Data`), without copying it first.
        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, extra: Int) {
            guard extra > 0 else { buffer.append(contentsOf: bytes); return }
            if padding.count != extra { padding = [UInt8](repeating: UInt8(ascii: " "), count: extra) }
            let newline = UInt8(ascii: "\n")
            var start = 0
            for index in 0..<bytes.count where bytes[index] == newline {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...index]))
                // JSONEncoder leaves the blank line of an empty array or object unindented.
                if index + 1 == bytes.count || bytes[index + 1] != newline { buffer.append(contentsOf: padding) }
                start = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        }

        mutating func flushIfFull() throws {
            if buffer.count >= Self.flushSize { try flush() }
        }

        /// Hands the buffer to the writer (throwing an earlier write's failure) and starts a new one.
        mutating func flush() throws {
            guard let writer, !buffer.isEmpty else { return }
            let full = buffer
            buffer = []
            buffer.reserveCapacity(Self.flushSize + 65_536)
            try writer.write(full)
        }

        /// Writes what is left and waits until all of it is in the file.
        mutating func finish() throws {
            try flush()
            try writer?.finish()
        }
    }

    /// Writes buffers to a file in order on a serial queue, one at a time, so memory stays
    /// bounded; the first failure is kept and thrown to the encoder at its next hand-off.
    final class BackgroundWriter: @unchecked Sendable {
        // @unchecked: `failure` is read and written holding `lock`; the handle is written only on
        // `queue`, one buffer at a time.
        private let handle: FileHandle
        private let queue = DispatchQueue(label: "frugal.report-json.write")
        private let slots = DispatchSemaphore(value: 1)
        private let lock = NSLock()
        private var failure: Error?

        init(handle: FileHandle) { self.handle = handle }

        func write(_ bytes: [UInt8]) throws {
            try check()
            slots.wait()
            queue.async { [self] in
                defer { slots.signal() }
                guard lock.withLock({ failure == nil }) else { return }
                do {
                    // Raw bytes: FileHandle writes a contiguous region in one call.
                    try bytes.withUnsafeBytes { try handle.write(contentsOf: $0) }
                } catch {
                    lock.withLock { failure = error }
                }
            }
        }

        /// Waits for the writes handed off so far.
        func drain() { queue.sync {} }

        func finish() throws {
            drain()
            try check()
        }

        private func check() throws {
            if let failure = lock.withLock({ failure }) { throw failure }
        }
    }
}
