import FrugalCore
import NIOCore
import Synchronization

/// Replays a HAR file: each request is answered with the recorded status, headers and body of
/// the entry that matches it.
///
/// Matching: the method and path must be equal, and the query too (its parameters in any
/// order); the host is compared when the client named one that is not the proxy's loopback
/// address. When the entries left differ in their request bodies, the body must be equal too
/// (two POSTs to one URL with different payloads are different requests). A request that matches
/// several entries gets them in recorded order, the last one again once they are used up. What
/// matches nothing is a 404 and a finding (``WireRequest/Source/unmatched``).
///
/// Bodies are served decoded (a HAR holds them decoded) and encoded again as the client's
/// `Accept-Encoding` asks (``ResponseEncoding``); hop-by-hop and length headers of the recording
/// are dropped, since the origin sets its own.
public final class HARResponder: OriginResponder {
    struct Candidate: Sendable {
        var host: String?
        var query: [String]
        var body: [UInt8]
        var response: OriginResponse
    }

    /// The file, for the report's words.
    public let path: String
    private let entries: [String: [Candidate]]
    private let served = Mutex<[String: Int]>([:])
    /// How many entries the file has.
    public let entryCount: Int

    /// Reads `path`; `timing` is `.recorded` (each entry's `timings.wait`) or fixed.
    public init(path: String, timing: ServerSettings.Timing) throws {
        self.path = path
        let archive = try HARArchive.read(path: path)
        var entries: [String: [Candidate]] = [:]
        for (index, entry) in archive.log.entries.enumerated() {
            // DevTools records blocked or failed requests with status 0, and a 1xx is an interim
            // answer (101 a protocol switch this origin cannot replay): no final answer to replay.
            guard entry.response.status >= 200 && entry.response.status <= 999 else { continue }
            let parsed = OriginRequest(method: entry.request.method.uppercased(), target: entry.request.url, headers: [])
            guard parsed.host != nil || entry.request.url.hasPrefix("/") else {
                throw HARError(path: path, problem: "entry \(index): request.url '\(entry.request.url)' is not a URL")
            }
            let delay: Double
            switch timing {
            case .recorded:
                delay = max(0, entry.timings?.wait ?? 0)
                guard delay <= ServerSettings.Timing.maximumMilliseconds else {
                    throw HARError(path: path, problem: "entry \(index): timings.wait \(delay) ms is over the longest wait a response may have (\(Int(ServerSettings.Timing.maximumMilliseconds)) ms); set server timing to a number of ms to replay it faster")
                }
            case .fixed(let ms): delay = ms
            }
            // HTTP/2 exports carry pseudo-headers (`:status`): no HTTP/1.1 header has that name.
            let headers = (entry.response.headers ?? []).filter { !Self.droppedHeaders.contains($0.name.lowercased()) && !$0.name.hasPrefix(":") }
                .map { ($0.name, $0.value) }
            let response = OriginResponse(status: entry.response.status, headers: headers, body: .bytes(entry.response.content.bodyBytes),
                                          source: .har, detail: "HAR entry \(index)", delayMilliseconds: delay)
            let key = Self.key(method: parsed.method, path: parsed.path)
            entries[key, default: []].append(Candidate(host: parsed.host, query: Self.normalized(parsed.query),
                                                       body: entry.request.postData?.bodyBytes ?? [], response: response))
        }
        self.entries = entries
        entryCount = archive.log.entries.count
    }

    /// Recorded headers the origin replaces with its own.
    static let droppedHeaders: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive",
                                              "proxy-connection", "upgrade", "trailer", "te"]

    static func key(method: String, path: String) -> String { "\(method.uppercased()) \(path)" }

    /// Query parameters sorted, so `b=2&a=1` matches `a=1&b=2`.
    static func normalized(_ query: String?) -> [String] {
        (query ?? "").split(separator: "&").map(String.init).sorted()
    }

    static func isLoopback(_ host: String?) -> Bool {
        guard let host else { return true }
        return host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }

    public func respond(to request: OriginRequest, on eventLoop: EventLoop) -> EventLoopFuture<OriginResponse> {
        eventLoop.makeSucceededFuture(answer(request))
    }

    public func answer(_ request: OriginRequest) -> OriginResponse {
        let key = Self.key(method: request.method, path: request.path)
        var candidates = entries[key] ?? []
        guard !candidates.isEmpty else {
            return .unmatched(request, looked: "no entry of \(path) is \(key)")
        }
        if !Self.isLoopback(request.host) {
            candidates = candidates.filter { Self.isLoopback($0.host) || $0.host == request.host }
            guard !candidates.isEmpty else { return .unmatched(request, looked: "\(path) has \(key) for other hosts only") }
        }
        let query = Self.normalized(request.query)
        candidates = candidates.filter { $0.query == query }
        guard !candidates.isEmpty else {
            return .unmatched(request, looked: "\(path) has \(key) with other query strings only")
        }
        if Set(candidates.map(\.body)).count > 1 {
            candidates = candidates.filter { $0.body == request.body }
            guard !candidates.isEmpty else { return .unmatched(request, looked: "\(path) has \(key) with other request bodies only") }
        }
        let matchKey = "\(key)?\(query.joined(separator: "&"))#\(request.body.hashValue)"
        let index = served.withLock { served -> Int in
            let next = served[matchKey, default: 0]
            served[matchKey] = next + 1
            return min(next, candidates.count - 1)
        }
        return candidates[index].response
    }
}
