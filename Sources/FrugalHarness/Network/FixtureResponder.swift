import Foundation
import FrugalCore
import NIOCore

/// Answers requests from a directory of files: the request path names the file.
///
/// For `GET /api/v1/forecast?city=paris` it looks, in order, for
/// `api/v1/forecast?city=paris` (a file for that exact query), `api/v1/forecast`,
/// `api/v1/forecast.*` (one file with any extension: `forecast.json`), and
/// `api/v1/forecast/index.*`. A file answers GET and HEAD with status 200, whatever the query,
/// unless its sidecar `FILE.meta.json` says otherwise:
///
/// ```json
/// {"status": 201, "method": ["POST"], "query": "match",
///  "headers": {"Cache-Control": "max-age=300", "ETag": "\"v7\""}}
/// ```
///
/// `query: match` makes a file without a query in its name answer only requests without one.
/// Headers declared there are sent as they are (an `ETag` makes `If-None-Match` answer 304, see
/// ``ResponseEncoding``); the content type otherwise follows the extension. What matches nothing
/// is a 404 whose body and the report's finding name what was asked and where it was looked for.
public struct FixtureResponder: OriginResponder {
    /// The directory (absolute).
    public let root: URL
    /// Server time before each answer, milliseconds.
    public let delayMilliseconds: Double

    /// The sidecar a fixture's metadata is read from: `FILE` + this suffix.
    public static let sidecarSuffix = ".meta.json"

    public init(directory: String, delayMilliseconds: Double = 0) {
        root = URL(fileURLWithPath: directory).standardizedFileURL
        self.delayMilliseconds = delayMilliseconds
    }

    /// A fixture's sidecar.
    struct Metadata: Decodable {
        var status: Int?
        var method: Methods?
        var query: String?
        var headers: [String: String]?

        /// One method or a list of them.
        struct Methods: Decodable {
            var names: [String]
            init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let one = try? container.decode(String.self) { names = [one] } else { names = try container.decode([String].self) }
                names = names.map { $0.uppercased() }
            }
        }
    }

    public func respond(to request: OriginRequest, on eventLoop: EventLoop) -> EventLoopFuture<OriginResponse> {
        eventLoop.makeSucceededFuture(answer(request))
    }

    /// The answer to `request`, read from the directory now (so fixtures edited between runs are
    /// served as they are).
    public func answer(_ request: OriginRequest) -> OriginResponse {
        let segments = request.path.split(separator: "/").map(String.init)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else {
            return .unmatched(request, looked: "a path with '.' or '..' segments is never looked up")
        }
        let relative = segments.joined(separator: "/")
        var looked: [String] = []
        var candidates: [(file: URL, exactQuery: Bool)] = []
        if let query = request.query, !relative.isEmpty {
            candidates.append((root.appendingPathComponent("\(relative)?\(query)"), true))
        }
        if !relative.isEmpty {
            let file = root.appendingPathComponent(relative)
            candidates.append((file, false))
            candidates += Self.withAnyExtension(file).map { ($0, false) }
        }
        candidates += Self.withAnyExtension(root.appendingPathComponent(relative).appendingPathComponent("index")).map { ($0, false) }
        looked = [relative.isEmpty ? "index.*" : "\(relative)\(request.query.map { "?\($0)" } ?? ""), \(relative), \(relative).*, \(relative)/index.*"]
        for (file, exactQuery) in candidates where Self.isRegularFile(file) {
            let name = String(file.path.dropFirst(root.path.count + 1))
            let metadata: Metadata
            do {
                metadata = try Self.metadata(for: file)
            } catch {
                return .text(500, "frugal: fixture \(name)\(Self.sidecarSuffix) is not valid: \(error)\n", source: .fixture,
                             detail: "fixture \(name)\(Self.sidecarSuffix) is not valid JSON metadata: \(error)")
            }
            let methods = metadata.method?.names ?? ["GET", "HEAD"]
            guard methods.contains(request.method.uppercased()) else {
                looked.append("\(name) answers \(methods.joined(separator: "/")), not \(request.method)")
                continue
            }
            if !exactQuery && request.query != nil && metadata.query == "match" {
                looked.append("\(name) answers only requests without a query (query: match)")
                continue
            }
            guard let data = FileManager.default.contents(atPath: file.path) else {
                return .text(500, "frugal: cannot read fixture \(name)\n", source: .fixture, detail: "cannot read fixture \(name)")
            }
            var headers: [(name: String, value: String)] = []
            let declared = (metadata.headers ?? [:]).sorted { $0.key < $1.key }
            if !declared.contains(where: { $0.key.lowercased() == "content-type" }) {
                headers.append(("content-type", Self.contentType(forExtension: file.pathExtension)))
            }
            headers += declared.map { ($0.key, $0.value) }
            return OriginResponse(status: metadata.status ?? 200, headers: headers, body: .bytes(Array(data)), source: .fixture,
                                  detail: "fixture \(name)", delayMilliseconds: delayMilliseconds)
        }
        return .unmatched(request, looked: "no fixture in \(root.path) (looked for \(looked.joined(separator: "; ")))")
    }

    static func isRegularFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// `file.*` in its directory, sidecars left out, sorted by name.
    static func withAnyExtension(_ file: URL) -> [URL] {
        let directory = file.deletingLastPathComponent()
        let stem = file.lastPathComponent + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { $0.hasPrefix(stem) && !$0.hasSuffix(sidecarSuffix) }.sorted().map { directory.appendingPathComponent($0) }
    }

    static func metadata(for file: URL) throws -> Metadata {
        let sidecar = file.path + sidecarSuffix
        guard let data = FileManager.default.contents(atPath: sidecar) else { return Metadata() }
        let metadata = try JSONDecoder().decode(Metadata.self, from: data)
        // A 1xx is an interim answer, never a final one (RFC 9110 §15.2): HTTP servers refuse to
        // send one as the response, and NIO's trapped the harness.
        if let status = metadata.status, !(200...999).contains(status) {
            throw HARError(path: sidecar, problem: "status \(status) is not a final HTTP status (200-999)")
        }
        return metadata
    }

    /// The media type of a file by its extension (the common web types; others are octet-stream).
    public static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "json": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css"
        case "js": return "application/javascript"
        case "xml": return "application/xml"
        case "csv": return "text/csv"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "pdf": return "application/pdf"
        default: return "application/octet-stream"
        }
    }
}
