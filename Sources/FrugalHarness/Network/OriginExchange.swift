import Foundation
import FrugalCore
import NIOCore

/// One whole HTTP request as the origin read it, whichever way it came (plain HTTP through the
/// proxy, or HTTP inside a TLS connection the origin terminated): what an ``OriginResponder``
/// answers.
public struct OriginRequest: Sendable {
    public var method: String
    /// From the absolute URL (`GET http://api.example.test/x`), else the `Host` header, without
    /// its port; nil when the client named none.
    public var host: String?
    /// The port named with the host, when one was.
    public var port: Int?
    public var path: String
    /// The query string without its `?`.
    public var query: String?
    /// Headers in the order received.
    public var headers: [(name: String, value: String)]
    /// The body, up to ``OriginRequest/bodyLimit`` bytes (`bodyBytes` counts all of it).
    public var body: [UInt8]
    public var bodyBytes: Int

    /// Bodies longer than this are counted, not kept (an upload of gigabytes is not matched on).
    public static let bodyLimit = 1 << 20

    public init(method: String, host: String?, port: Int? = nil, path: String, query: String?,
                headers: [(name: String, value: String)] = [], body: [UInt8] = [], bodyBytes: Int? = nil) {
        self.method = method
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyBytes = bodyBytes ?? body.count
    }

    /// Parses a request target (`/a?b`, or an absolute `http://host:port/a?b` as proxies get)
    /// and the `Host` header into host, port, path and query.
    public init(method: String, target: String, headers: [(name: String, value: String)], body: [UInt8] = [], bodyBytes: Int? = nil) {
        var rest = Substring(target)
        var authority: Substring?
        if let schemeEnd = rest.range(of: "://"), rest[..<schemeEnd.lowerBound].allSatisfy(\.isLetter) {
            rest = rest[schemeEnd.upperBound...]
            let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            authority = rest[..<slash]
            rest = rest[slash...]
        }
        let hostHeader = headers.first { $0.name.lowercased() == "host" }?.value
        let (host, port) = Self.split(authority: authority.map(String.init) ?? hostHeader)
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        self.init(method: method, host: host, port: port, path: path.isEmpty ? "/" : path,
                  query: parts.count > 1 ? String(parts[1]) : nil, headers: headers, body: body, bodyBytes: bodyBytes)
    }

    /// `host:port` → (host, port); `[::1]:8080` too.
    static func split(authority: String?) -> (String?, Int?) {
        guard var text = authority, !text.isEmpty else { return (nil, nil) }
        if let at = text.lastIndex(of: "@") { text = String(text[text.index(after: at)...]) }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            return (host, after.hasPrefix(":") ? Int(after.dropFirst()) : nil)
        }
        if let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) {
            return (String(text[..<colon]).lowercased(), port)
        }
        return (text.lowercased(), nil)
    }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// Path and query, as in a request line.
    public var target: String { query.map { "\(path)?\($0)" } ?? path }
}

/// The answer to an ``OriginRequest``, before the origin applies content coding and
/// conditional requests (``ResponseEncoding``).
public struct OriginResponse: Sendable {
    public var status: Int
    /// Headers to send (the origin sets `content-length`, `content-encoding` and `connection` itself).
    public var headers: [(name: String, value: String)]
    /// The body, unencoded.
    public var body: Body
    public var source: WireRequest.Source
    /// Shown with the request in the report (`no fixture for GET /x: looked for ...`).
    public var detail: String?
    /// How long the server takes before answering (recorded or configured server time).
    public var delayMilliseconds: Double

    /// A body: bytes in memory, or one of the origin's synthetic streams (generated as it is sent).
    public enum Body: Sendable {
        case bytes([UInt8])
        case synthetic(path: String)
    }

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body, source: WireRequest.Source,
                detail: String? = nil, delayMilliseconds: Double = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.source = source
        self.detail = detail
        self.delayMilliseconds = delayMilliseconds
    }

    /// A plain-text response.
    public static func text(_ status: Int, _ text: String, source: WireRequest.Source, detail: String? = nil) -> OriginResponse {
        OriginResponse(status: status, headers: [("content-type", "text/plain; charset=utf-8")], body: .bytes(Array(text.utf8)),
                       source: source, detail: detail)
    }

    /// The 404 a request nothing matched gets: its body says what was asked and what was looked at.
    public static func unmatched(_ request: OriginRequest, looked: String) -> OriginResponse {
        let what = "\(request.method) \(request.host.map { "\($0)" } ?? "")\(request.target)"
        let detail = "nothing served matches \(what): \(looked)"
        return text(404, "frugal: \(detail)\n", source: .unmatched, detail: detail)
    }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }
}

/// What answers the origin's requests: the synthetic routes, a fixture directory, a HAR file, or
/// a real server being recorded. Called on the connection's event loop; a responder that waits
/// (the upstream) returns a future completed later on that loop.
public protocol OriginResponder: Sendable {
    func respond(to request: OriginRequest, on eventLoop: EventLoop) -> EventLoopFuture<OriginResponse>
}

/// The origin's built-in routes (see ``OriginServer``): the built-in workloads' server.
public struct SyntheticResponder: OriginResponder {
    public init() {}

    public func respond(to request: OriginRequest, on eventLoop: EventLoop) -> EventLoopFuture<OriginResponse> {
        eventLoop.makeSucceededFuture(answer(request))
    }

    func answer(_ request: OriginRequest) -> OriginResponse {
        let path = request.path
        switch (request.method, path) {
        case ("GET", "/ping"):
            return OriginResponse(status: 200, headers: [("content-type", "text/plain")], body: .bytes(Array("pong".utf8)), source: .synthetic)
        case ("POST", _) where path == "/upload" || path.hasPrefix("/upload/"):
            return OriginResponse(status: 200, headers: [("content-type", "application/json")],
                                  body: .bytes(Array(#"{"received":\#(request.bodyBytes)}"#.utf8)), source: .synthetic)
        case ("GET", _) where path.hasPrefix("/bytes/") || path.hasPrefix("/random/") || path.hasPrefix("/json/"):
            guard BodySource(path: path) != nil else {
                return .text(400, "bad length (0...\(OriginServer.maximumBodyLength))\n", source: .synthetic)
            }
            let type = path.hasPrefix("/json/") ? "application/json" : path.hasPrefix("/bytes/") ? "text/plain" : "application/octet-stream"
            return OriginResponse(status: 200, headers: [("content-type", type)], body: .synthetic(path: path), source: .synthetic)
        default:
            return OriginResponse(status: 404, headers: [("content-type", "text/plain")], body: .bytes(Array("not found\n".utf8)), source: .synthetic)
        }
    }
}

/// Asks each responder in turn and takes the first answer that is not ``WireRequest/Source/unmatched``
/// (a HAR, then a fixture directory); when none matches, the last one's 404 is the answer,
/// with every responder's reason.
public struct FirstMatchResponder: OriginResponder {
    public let responders: [any OriginResponder]

    public init(_ responders: [any OriginResponder]) {
        self.responders = responders
    }

    public func respond(to request: OriginRequest, on eventLoop: EventLoop) -> EventLoopFuture<OriginResponse> {
        guard responders.count > 1 else {
            return responders.first?.respond(to: request, on: eventLoop) ?? eventLoop.makeSucceededFuture(.unmatched(request, looked: "nothing is served"))
        }
        return attempt(0, request: request, on: eventLoop, reasons: [])
    }

    private func attempt(_ index: Int, request: OriginRequest, on eventLoop: EventLoop, reasons: [String]) -> EventLoopFuture<OriginResponse> {
        responders[index].respond(to: request, on: eventLoop).flatMap { response in
            guard response.source == .unmatched else { return eventLoop.makeSucceededFuture(response) }
            let reasons = reasons + [response.detail ?? ""]
            guard index + 1 < responders.count else {
                let looked = reasons.map { $0.replacingOccurrences(of: "nothing served matches \(request.method) \(request.host ?? "")\(request.target): ", with: "") }
                return eventLoop.makeSucceededFuture(.unmatched(request, looked: looked.joined(separator: "; ")))
            }
            return attempt(index + 1, request: request, on: eventLoop, reasons: reasons)
        }
    }
}
