import Foundation
import FrugalCore
import Synchronization

/// Reads and writes `report.json`, and the compact baseline.
public enum ReportJSON {
    /// The largest report.json read (docs/robustness.md): the default suite's is a few MB; a
    /// file far beyond it is not a report, and reading it whole would take the machine's memory.
    public static let maxBytes = 256 << 20

    /// Pretty-printed, keys sorted, so reports diff well in version control.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    /// The whole report in memory. Writing a file, ``ReportJSONWriter`` gives the same bytes
    /// without holding them all.
    public static func encode(_ report: Report) throws -> Data {
        var data = try makeEncoder().encode(report)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The compact baseline of `report` (``CompactBaseline``): one line per workload and
    /// scenario, keys sorted, so a baseline update diffs line by line.
    public static func encodeBaseline(_ report: Report) throws -> Data {
        let baseline = CompactBaseline(report)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = makeEncoder().nonConformingFloatEncodingStrategy
        var shell = baseline
        shell.workloads = []
        var head = try encoder.encode(shell)
        // `"workloads":[]}` closes the shell (its last key in sorted order): the workloads go
        // in its place, one per line.
        let tail = Data(#""workloads":[]}"#.utf8)
        guard head.count >= tail.count, head.suffix(tail.count) == tail else {
            throw ReportError("baseline writer: unexpected encoding of the baseline's header")
        }
        head.removeLast(tail.count)
        var data = head
        data.append(contentsOf: #""workloads":["#.utf8)
        for (index, workload) in baseline.workloads.enumerated() {
            data.append(contentsOf: (index == 0 ? "\n" : ",\n").utf8)
            data.append(try encoder.encode(workload))
        }
        data.append(contentsOf: "\n]}\n".utf8)
        return data
    }

    /// Decodes a report, or a compact baseline as the report it stands for, in one pass over
    /// the bytes; other schema versions are refused with a clear error.
    public static func decode(_ data: Data) throws -> Report {
        // What `encode` writes for a non-finite number, it reads back.
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try decoder.decode(ReportDocument.self, from: data).report
    }

    /// Reads a file mapped rather than copied into memory, then decodes it.
    public static func read(contentsOf url: URL) throws -> Report {
        try decode(try Data(contentsOf: url, options: .alwaysMapped))
    }

    /// `first` and `second` side by side, each on a core of its own: `frugal compare` reads its
    /// two reports this way (decoding is nearly all of its time). The first's failure is thrown
    /// before the second's, as when they were read one after the other.
    public static func pair<First: Sendable, Second: Sendable>(_ first: @Sendable () throws -> First,
                                                                _ second: @Sendable () throws -> Second) throws -> (First, Second) {
        let results = Mutex<(Result<First, Error>?, Result<Second, Error>?)>((nil, nil))
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                let result = Result { try first() }
                results.withLock { $0.0 = result }
            } else {
                let result = Result { try second() }
                results.withLock { $0.1 = result }
            }
        }
        let (one, two) = results.withLock { $0 }
        return (try one!.get(), try two!.get())
    }

    /// Either kind of file, told apart by `format` after the version is checked.
    private struct ReportDocument: Decodable {
        var report: Report
        private enum Keys: String, CodingKey { case schemaVersion, format }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let version = try? container.decodeIfPresent(Int.self, forKey: .schemaVersion)
            guard version == Report.currentSchemaVersion else {
                throw ReportError("schemaVersion \(version.map(String.init) ?? "missing") is not supported (this frugal reads \(Report.currentSchemaVersion))")
            }
            if let format = try container.decodeIfPresent(String.self, forKey: .format) {
                guard format == CompactBaseline.formatName else {
                    throw ReportError("format '\(format)' is not known (this frugal reads reports and '\(CompactBaseline.formatName)')")
                }
                report = try CompactBaseline(from: decoder).report()
            } else {
                report = try Report(from: decoder)
            }
        }
    }
}

/// A report that cannot be read or written.
public struct ReportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
