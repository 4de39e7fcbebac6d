import Foundation
import FrugalCore

/// Reads and writes `report.json`.
public enum ReportJSON {
    /// The largest report.json read (docs/robustness.md): the default suite's is a few MB; a
    /// file far beyond it is not a report, and reading it whole would take the machine's memory.
    public static let maxBytes = 256 << 20

    /// Pretty-printed, keys sorted, so reports diff well in version control.
    public static func encode(_ report: Report) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        var data = try encoder.encode(report)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Decodes a report, refusing other schema versions with a clear error.
    public static func decode(_ data: Data) throws -> Report {
        struct Version: Decodable { var schemaVersion: Int? }
        let version = try JSONDecoder().decode(Version.self, from: data).schemaVersion
        guard version == Report.currentSchemaVersion else {
            throw ReportError("schemaVersion \(version.map(String.init) ?? "missing") is not supported (this frugal reads \(Report.currentSchemaVersion))")
        }
        // What `encode` writes for a non-finite number, it reads back.
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try decoder.decode(Report.self, from: data)
    }
}

/// A report that cannot be read or written.
public struct ReportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
