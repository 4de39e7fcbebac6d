import Foundation
import FrugalCore

/// `evidence.json`, a suite's raw evidence (``RunEvidence``) beside its report: written with the
/// report set, read by `frugal reaudit`.
public enum EvidenceFile {
    /// The largest evidence file read: the records of a suite are a few times its report.json.
    public static let maxBytes = 4 * ReportJSON.maxBytes

    /// Writes `evidence` as JSON to `url` (a new file in a report set's staging directory).
    public static func write(_ evidence: RunEvidence, to url: URL) throws {
        let encoder = JSONEncoder()
        // Sorted, so two re-audits of one file, or a file and its copy, are byte for byte alike.
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(evidence).write(to: url)
    }

    /// Reads the evidence in `data`; throws ``EvidenceFileError`` for another format or a newer one.
    public static func decode(_ data: Data) throws -> RunEvidence {
        do {
            let evidence = try JSONDecoder().decode(RunEvidence.self, from: data)
            guard evidence.format <= RunEvidence.currentFormat else { throw newer(evidence.format, evidence.gatheredBy.version) }
            return evidence
        } catch let error as DecodingError {
            // Parsed once more only to say what is wrong: another file, or a newer format.
            struct Header: Decodable { var format: Int?; var gatheredBy: ToolInfo? }
            guard let header = try? JSONDecoder().decode(Header.self, from: data), let format = header.format, header.gatheredBy != nil else {
                throw EvidenceFileError("not a Frugal evidence file (no format and gatheredBy at its top level; frugal run writes evidence.json beside report.json)")
            }
            if format > RunEvidence.currentFormat { throw newer(format, header.gatheredBy?.version ?? "?") }
            throw error
        }
    }

    private static func newer(_ format: Int, _ version: String) -> EvidenceFileError {
        EvidenceFileError("evidence format \(format) is newer than this Frugal reads (\(RunEvidence.currentFormat)): gathered by frugal \(version)")
    }
}

/// An evidence file that cannot be read, in one line.
public struct EvidenceFileError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
