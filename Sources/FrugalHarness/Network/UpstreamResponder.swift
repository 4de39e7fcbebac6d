import Foundation
import FrugalCore
import FrugalProbe
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Recording (`frugal record --upstream URL`): forwards every request to a real server and keeps
/// each exchange, to be written as a HAR file that later runs replay (``HARResponder``).
///
/// The upstream is `http://host[:port][/prefix]`; each request opens its own connection to it
/// (the app's connection pattern is what the proxy shapes and counts, not this one). The request
/// goes with the app's method, path, query, headers and body, except that it asks for
/// `Accept-Encoding: identity`: the recording keeps bodies decoded, as HAR does, and the origin
/// encodes them again for whatever the app asks at replay. The recorded URL keeps the host the app
/// asked for (`api.example.test`), so replay matches the app's own requests.
public final class UpstreamResponder: OriginResponder {
    public let host: String
    public let port: Int
    /// Prepended to every request path (`/v2` of `http://server/v2`).
    public let pathPrefix: String
    private let group: EventLoopGroup
    private let entries = Mutex<[(order: Int, entry: HARArchive.Entry)]>([])
    private let counter = Atomic<Int>(0)

    /// - Parameter url: `http://host[:port][/prefix]`; anything else throws (HTTPS upstreams are not recorded yet).
    public init(url: String, group: EventLoopGroup) throws {
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "http", let host = parsed.host, !host.isEmpty else {
            throw HARError(path: url, problem: "is not an http://host[:port][/path] URL to record from")
        }
        self.host = host
        self.port = parsed.port ?? 80
        self.pathPrefix = parsed.path == "/" ? "" : parsed.path
        self.group = group
    }

    /// The exchanges recorded so far, in the order the requests arrived.
    public func archive() -> HARArchive {
        let recorded = entries.withLock { $0 }.sorted { $0.order < $1.order }.map(\.entry)
        return HARArchive(log: .init(version: "1.2", creator: .init(name: "frugal record", version: "1"), entries: recorded))
    }

    public func respond(to request: OriginRequest, on eventLoop: EventLoop) -> EventLoopFuture<OriginResponse> {
        let order = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let target = pathPrefix + request.target
        var headers = HTTPHeaders()
        for (name, value) in request.headers where !Self.hopByHop.contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        headers.replaceOrAdd(name: "host", value: port == 80 ? host : "\(host):\(port)")
        headers.replaceOrAdd(name: "accept-encoding", value: "identity")
        headers.replaceOrAdd(name: "connection", value: "close")
        if !request.body.isEmpty || request.method == "POST" || request.method == "PUT" || request.method == "PATCH" {
            headers.replaceOrAdd(name: "content-length", value: String(request.body.count))
        }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: target, headers: headers)
        let promise = eventLoop.makePromise(of: UpstreamExchange.self)
        let sent = MonotonicClock.now()
        let started = Date()
        let body = request.body
        ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(UpstreamExchangeHandler(promise: promise, sent: sent))
                }
            }
            .connect(host: host, port: port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    channel.write(HTTPClientRequestPart.head(head), promise: nil)
                    if !body.isEmpty {
                        channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
                    }
                    channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                case .failure(let error):
                    promise.fail(error)
                }
            }
        let recordedURL = "http://\(request.host ?? host)\(request.port.map { ":\($0)" } ?? "")\(request.target)"
        return promise.futureResult.map { [self] exchange in
            let responseHeaders = exchange.head.headers.map { HARArchive.Header(name: $0.name, value: $0.value) }
            let entry = HARArchive.Entry(
                startedDateTime: ISO8601DateFormatter().string(from: started),
                time: exchange.totalMilliseconds,
                request: .init(method: request.method, url: recordedURL, httpVersion: "HTTP/1.1",
                               headers: request.headers.map { .init(name: $0.name, value: $0.value) },
                               postData: request.body.isEmpty ? nil : Self.postData(request)),
                response: .init(status: Int(exchange.head.status.code), statusText: exchange.head.status.reasonPhrase, httpVersion: "HTTP/1.1",
                                headers: responseHeaders,
                                content: .init(bytes: exchange.body, mimeType: exchange.head.headers.first(name: "content-type"))),
                timings: .init(wait: exchange.waitMilliseconds, receive: exchange.totalMilliseconds - exchange.waitMilliseconds, send: 0))
            entries.withLock { $0.append((order, entry)) }
            let kept = exchange.head.headers.filter { !HARResponder.droppedHeaders.contains($0.name.lowercased()) }.map { ($0.name, $0.value) }
            return OriginResponse(status: Int(exchange.head.status.code), headers: kept, body: .bytes(exchange.body), source: .upstream,
                                  detail: "recorded from \(host):\(port)")
        }
    }

    static func postData(_ request: OriginRequest) -> HARArchive.PostData {
        let type = request.header("content-type")
        if let text = String(validating: request.body, as: UTF8.self) {
            return .init(mimeType: type, text: text, encoding: nil)
        }
        return .init(mimeType: type, text: Data(request.body).base64EncodedString(), encoding: "base64")
    }

    /// Request headers not forwarded: they describe the app's connection to the proxy, not this one.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer",
                                        "transfer-encoding", "upgrade", "content-length", "accept-encoding", "host"]
}

/// One upstream response, whole.
struct UpstreamExchange: Sendable {
    var head: HTTPResponseHead
    var body: [UInt8]
    var waitMilliseconds: Double
    var totalMilliseconds: Double
}

/// Collects one response on a client connection, then closes it.
final class UpstreamExchangeHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<UpstreamExchange>
    private let sent: UInt64
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    private var firstByte: UInt64?
    private var done = false

    init(promise: EventLoopPromise<UpstreamExchange>, sent: UInt64) {
        self.promise = promise
        self.sent = sent
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let value):
            head = value
            firstByte = MonotonicClock.now()
        case .body(let buffer):
            body += buffer.readableBytesView
        case .end:
            if let head, !done {
                done = true
                let end = MonotonicClock.now()
                promise.succeed(UpstreamExchange(head: head, body: body,
                                                 waitMilliseconds: MonotonicClock.seconds(from: sent, to: firstByte ?? end) * 1000,
                                                 totalMilliseconds: MonotonicClock.seconds(from: sent, to: end) * 1000))
            }
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if !done { promise.fail(error) }
        done = true
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        struct ClosedEarly: Error, CustomStringConvertible { var description: String { "the upstream closed the connection before a whole response" } }
        if !done { promise.fail(ClosedEarly()) }
        done = true
        context.fireChannelInactive()
    }
}
