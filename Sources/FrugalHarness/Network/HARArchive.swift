import Foundation
import FrugalCore

/// The parts of a HAR 1.2 file (W3C Web Performance WG's HTTP Archive, as browser DevTools,
/// Charles and mitmproxy export it) that replaying and recording need. Fields Frugal does not
/// use are ignored when read; what it writes is a valid HAR 1.2 log.
public struct HARArchive: Codable, Sendable {
    public var log: Log

    public struct Log: Codable, Sendable {
        public var version: String?
        public var creator: Creator?
        public var entries: [Entry]
    }

    public struct Creator: Codable, Sendable {
        public var name: String
        public var version: String
    }

    public struct Entry: Codable, Sendable {
        public var startedDateTime: String?
        /// Milliseconds the whole exchange took.
        public var time: Double?
        public var request: Request
        public var response: Response
        public var timings: Timings?
    }

    public struct Header: Codable, Sendable {
        public var name: String
        public var value: String
    }

    public struct Request: Codable, Sendable {
        public var method: String
        public var url: String
        public var httpVersion: String?
        public var headers: [Header]?
        public var postData: PostData?
    }

    public struct PostData: Codable, Sendable {
        public var mimeType: String?
        public var text: String?
        /// Not in HAR 1.2 for postData, but mitmproxy and Frugal write it for a binary body.
        public var encoding: String?
    }

    public struct Response: Codable, Sendable {
        public var status: Int
        public var statusText: String?
        public var httpVersion: String?
        public var headers: [Header]?
        public var content: Content
    }

    public struct Content: Codable, Sendable {
        /// Bytes of the decoded body.
        public var size: Int?
        public var mimeType: String?
        public var text: String?
        /// `base64` when `text` is base64 (binary bodies).
        public var encoding: String?
    }

    public struct Timings: Codable, Sendable {
        /// Milliseconds waiting for the first response byte: the server's time (and a round trip).
        public var wait: Double?
        public var receive: Double?
        public var send: Double?
    }

    /// Reads a HAR file; errors name the file and what is wrong with it.
    public static func read(path: String) throws -> HARArchive {
        // The kind first: a FIFO would be waited on for ever, a directory read as nothing.
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw HARError(path: path, problem: "cannot be read: \(String(cString: strerror(errno)))")
        }
        if let kind = FileKind.nonRegular(mode: info.st_mode) {
            throw HARError(path: path, problem: "is \(kind), not a HAR file")
        }
        guard info.st_size <= maximumBytes else {
            throw HARError(path: path, problem: "is \(info.st_size / 1_048_576) MiB, more than a HAR file may be (\(maximumBytes / 1_048_576) MiB)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw HARError(path: path, problem: "cannot be read: \(ErrorText.reason(error))")
        }
        do {
            return try JSONDecoder().decode(HARArchive.self, from: data)
        } catch let error as DecodingError {
            throw HARError(path: path, problem: "is not a HAR 1.2 file: \(Self.describe(error, data: data))")
        } catch {
            throw HARError(path: path, problem: "is not a HAR 1.2 file: \(ErrorText.reason(error))")
        }
    }

    /// Writes the archive as JSON (keys sorted, so two recordings of the same exchanges compare).
    public func write(path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw HARError(path: path, problem: "cannot be written")
        }
    }

    /// The largest HAR file read: as large as a report may be.
    public static let maximumBytes: Int = 256 << 20

    static func describe(_ error: DecodingError, data: Data? = nil) -> String {
        func at(_ path: [CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(at(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(at(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context) where ErrorText.isWholeDocument(context): return ErrorText.invalidJSON(data)
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? context.debugDescription : "\(at(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// A HAR file that cannot be used: the file and what is wrong, in one line.
public struct HARError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var problem: String
    public var description: String { "\(path) \(problem)" }
}

extension HARArchive.Content {
    /// The decoded body bytes (`text` as UTF-8, or base64-decoded).
    var bodyBytes: [UInt8] {
        guard let text else { return [] }
        if encoding?.lowercased() == "base64" { return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map(Array.init) ?? [] }
        return Array(text.utf8)
    }

    /// `bytes` as HAR content: text when it is UTF-8, base64 otherwise.
    init(bytes: [UInt8], mimeType: String?) {
        if let text = String(validating: bytes, as: UTF8.self) {
            self.init(size: bytes.count, mimeType: mimeType, text: text, encoding: nil)
        } else {
            self.init(size: bytes.count, mimeType: mimeType, text: Data(bytes).base64EncodedString(), encoding: "base64")
        }
    }
}

extension HARArchive.PostData {
    var bodyBytes: [UInt8] {
        guard let text else { return [] }
        if encoding?.lowercased() == "base64" { return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map(Array.init) ?? [] }
        return Array(text.utf8)
    }
}
