/// One HTTP request as the run's origin server read it and answered it, whatever client sent it
/// (FrugalKit's `NetworkClient`, `URLSession`, curl, AsyncHTTPClient): the network audits' source
/// of requests, so every client is judged alike. `NetworkClient`'s own events add detail (the
/// app's operation names, retries) where they match one of these.
///
/// Byte counts are HTTP-level: `...BodyBytes` are what crossed the connection (after any
/// `Content-Encoding`), `responseDecodedBodyBytes` what the body was before it was encoded.
/// Offsets are the connection's socket bytes (TLS records included, when the connection is
/// encrypted) before and after the exchange, which place it on the proxy's trace.
public struct WireRequest: Codable, Sendable, Equatable {
    /// Where the answer came from.
    public enum Source: String, Codable, Sendable {
        /// The origin's built-in routes (`/bytes/N`, `/json/N`, `/upload`, ...).
        case synthetic
        /// A file of the run's fixture directory.
        case fixture
        /// An entry of the run's HAR file.
        case har
        /// Forwarded to the real server being recorded (`frugal record --upstream`).
        case upstream
        /// Nothing the run serves matched: answered 404, and a finding in the report.
        case unmatched
    }

    /// The proxy's connection id (as in its trace), when the origin's connection was matched to it.
    public var connection: Int?
    /// The origin's own number for the connection, from 1 in accept order.
    public var originConnection: Int
    /// Whether an earlier request used the same connection (keep-alive).
    public var reusedConnection: Bool
    public var method: String
    /// From the absolute URL the client asked for, else its `Host` header.
    public var host: String?
    public var path: String
    /// The query string without its `?`, when there is one.
    public var query: String?
    public var status: Int
    public var source: Source
    /// What the server could not match, or how it matched (`fixture api/v1/forecast.json`).
    public var detail: String?
    /// Request body bytes as they crossed the connection.
    public var requestBodyBytes: Int
    /// Response body bytes as they crossed the connection (compressed, when `contentEncoding` says so).
    public var responseBodyBytes: Int
    /// Response body bytes before the server encoded them.
    public var responseDecodedBodyBytes: Int
    /// `sha256:<hex>` of the decoded body, for a body the run served from bytes it held (a
    /// fixture file, a HAR entry, an upstream answer): matched against the sandbox's files at the
    /// end (`disk.backup-placement`'s downloads) without keeping the body. Nil for synthetic bodies
    /// (rebuilt from their path instead), HEAD and empty bodies, and older records.
    public var responseBodyDigest: String? = nil
    /// The label (`METHOD target`) of the latest earlier answer, served from bytes the run held,
    /// whose body held this request's path: a link the app followed (a config naming its feed, a
    /// feed naming a story), which it could not ask for before that answer came. Nil otherwise.
    public var namedBy: String? = nil
    /// The response's `Content-Encoding` (`gzip`, `deflate`), nil for identity.
    public var contentEncoding: String?
    /// What the client offered in `Accept-Encoding`, nil when it sent none.
    public var acceptEncoding: String?
    /// Socket bytes read on the connection before this request started, and written before its
    /// response started and once it ended (nil: the response never ended).
    public var uplinkOffset: Int
    public var downlinkOffset: Int
    public var downlinkEndOffset: Int?
    /// Seconds since exec: the request started, its response's first byte, its response's last
    /// byte (nil when it never ended). On the proxy's link when `timesFromProxy`, else when the
    /// origin read and wrote them (behind the link's delay).
    public var start: Double
    public var firstByte: Double?
    public var end: Double?
    /// Whether the times are the proxy's (the shaped link the device sees) rather than the origin's.
    public var timesFromProxy: Bool

    public init(connection: Int? = nil, originConnection: Int, reusedConnection: Bool, method: String, host: String?,
                path: String, query: String?, status: Int, source: Source, detail: String? = nil, requestBodyBytes: Int,
                responseBodyBytes: Int, responseDecodedBodyBytes: Int, contentEncoding: String?, acceptEncoding: String?,
                uplinkOffset: Int, downlinkOffset: Int, downlinkEndOffset: Int?, start: Double, firstByte: Double?,
                end: Double?, timesFromProxy: Bool = false) {
        self.connection = connection
        self.originConnection = originConnection
        self.reusedConnection = reusedConnection
        self.method = method
        self.host = host
        self.path = path
        self.query = query
        self.status = status
        self.source = source
        self.detail = detail
        self.requestBodyBytes = requestBodyBytes
        self.responseBodyBytes = responseBodyBytes
        self.responseDecodedBodyBytes = responseDecodedBodyBytes
        self.contentEncoding = contentEncoding
        self.acceptEncoding = acceptEncoding
        self.uplinkOffset = uplinkOffset
        self.downlinkOffset = downlinkOffset
        self.downlinkEndOffset = downlinkEndOffset
        self.start = start
        self.firstByte = firstByte
        self.end = end
        self.timesFromProxy = timesFromProxy
    }

    /// `GET /api/v1/forecast?city=paris`.
    public var label: String { "\(method) \(target)" }
    /// The request target: path and query.
    public var target: String { query.map { "\(path)?\($0)" } ?? path }
    /// Whether a whole response was sent.
    public var completed: Bool { downlinkEndOffset != nil }

    /// Moves each request's times onto the proxy's link: the release of the chunk carrying its
    /// first request byte, its first response byte and its last response byte, found by the
    /// connection's socket-byte offsets in that connection's chunks. Requests with no proxy
    /// connection, or whose offsets lie past what the proxy released, keep the origin's times.
    public static func placeOnLink(_ requests: [WireRequest], chunks: [TrafficChunk]) -> [WireRequest] {
        var series: [Int: (up: [(end: Int, time: Double)], down: [(end: Int, time: Double)])] = [:]
        for chunk in chunks {
            var entry = series[chunk.connection] ?? ([], [])
            if chunk.direction == .uplink {
                entry.up.append(((entry.up.last?.end ?? 0) + chunk.bytes, chunk.time))
            } else {
                entry.down.append(((entry.down.last?.end ?? 0) + chunk.bytes, chunk.time))
            }
            series[chunk.connection] = entry
        }
        /// The time of the first chunk whose cumulative end passes `offset` (strictly, or reaching it when `inclusive`).
        func time(_ list: [(end: Int, time: Double)], after offset: Int, inclusive: Bool = false) -> Double? {
            var low = 0, high = list.count
            while low < high {
                let mid = (low + high) / 2
                if inclusive ? list[mid].end >= offset : list[mid].end > offset { high = mid } else { low = mid + 1 }
            }
            return low < list.count ? list[low].time : nil
        }
        return requests.map { request in
            guard let connection = request.connection, let lists = series[connection],
                  let start = time(lists.up, after: request.uplinkOffset),
                  let first = time(lists.down, after: request.downlinkOffset) else { return request }
            var placed = request
            placed.start = start
            placed.firstByte = first
            placed.end = request.downlinkEndOffset.flatMap { time(lists.down, after: $0, inclusive: true) }
            placed.timesFromProxy = true
            return placed
        }
    }
}

/// A TCP connection a run's process held to somewhere other than the run's proxy: traffic the
/// proxy never saw, so neither shaped nor counted (never read as zero bytes).
public struct UnseenConnection: Codable, Sendable, Equatable {
    /// `93.184.216.34:443`.
    public var remoteAddress: String
    /// The process that held it.
    public var pid: Int32
    /// Seconds since exec when it was first seen.
    public var firstSeen: Double

    public init(remoteAddress: String, pid: Int32, firstSeen: Double) {
        self.remoteAddress = remoteAddress
        self.pid = pid
        self.firstSeen = firstSeen
    }
}
