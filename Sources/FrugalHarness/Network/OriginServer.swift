import FrugalCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A small HTTP/1.1 origin server on loopback that serves deterministic content, so a
/// workload's traffic can be generated, shaped by ``ShapingProxy`` and counted.
///
/// Routes (anything else is 404; a bad N is 400):
/// - `GET /bytes/N`: N bytes of a repeating printable pattern (compressible), see ``OriginContent``.
/// - `GET /random/N`: N incompressible pseudo-random bytes.
/// - `GET /json/N`: a JSON document of exactly `max(N, 12)` bytes.
/// - `POST /upload` or `POST /upload/NAME`: reads and discards the body; replies `{"received":<bytes>}`
///   (NAME lets an app's operations be counted per path).
/// - `GET /ping`: replies `pong`.
///
/// Every response has a `content-length`; keep-alive follows the request (HTTP/1.1
/// default on, `connection: close` honoured), and pipelined requests are answered in
/// order. Bodies are generated while the socket is writable, so a slow reader holds
/// the server back instead of filling memory.
///
/// Thread safety: methods may be called from any thread except the server's own event loops.
public final class OriginServer: Sendable {
    /// Largest N accepted in `/bytes/N`, `/random/N`, `/json/N` (64 GiB).
    public static let maximumBodyLength = 64 << 30

    /// Address the server listens on.
    public let host: String
    private let requestedPort: Int
    private let group: EventLoopGroup
    private let recorder = OriginStatisticsRecorder()
    /// Whether each whole body is also deflated to measure its compressibility (costs CPU).
    public let measuresCompressibility: Bool
    /// The run's CA, when the server also answers `CONNECT` with TLS (OriginServer+Connect.swift).
    public let certificateAuthority: RunCertificateAuthority?
    private let server = BoundServer()

    /// Creates a stopped server.
    ///
    /// - Parameters:
    ///   - host: address to listen on; keep it on loopback.
    ///   - port: port to listen on; 0 picks a free one (see ``start()``).
    ///   - group: event loops to run on (one loop is enough to saturate a shaped link); by
    ///     default NIO's shared group. Its owner shuts it down, which closes open connections.
    ///   - measuresCompressibility: deflate every whole request and response body to count its
    ///     compressed size (``OriginStatistics/PathStatistics/deflatedBytes``); off by default
    ///     because it costs the server CPU in proportion to the bytes it serves.
    ///   - certificateAuthority: when given, `CONNECT host:port` is answered with a TLS tunnel
    ///     whose certificate for `host` this CA signs, and the requests inside are served as plain ones.
    public init(host: String = "127.0.0.1", port: Int = 0, group: EventLoopGroup? = nil, measuresCompressibility: Bool = false,
                certificateAuthority: RunCertificateAuthority? = nil) {
        self.host = host
        self.measuresCompressibility = measuresCompressibility
        self.certificateAuthority = certificateAuthority
        self.requestedPort = port
        self.group = group ?? BoundServer.defaultGroup
    }

    /// Starts listening and returns the bound port.
    @discardableResult
    public func start() throws -> Int {
        let recorder = self.recorder
        let measures = measuresCompressibility
        let authority = certificateAuthority
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // A client that sends its request and then shuts down its write side (half-close)
            // still gets its response; NIO's HTTP pipeline closes after answering it.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                recorder.connectionAccepted()
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(OriginHandler(recorder: recorder, measuresCompressibility: measures))
                    // HTTPS: a CONNECT becomes TLS in front of the same HTTP handlers.
                    if let authority { try channel.pipeline.syncOperations.addHandler(ConnectTunnelHandler(authority: authority), position: .first) }
                }
            }
        return try server.bind(bootstrap, host: host, port: requestedPort)
    }

    /// The port the server listens on, once started.
    public var port: Int? { server.port }

    /// Stops listening; connections already open end when their clients close them or when
    /// the group's owner shuts it down. Idempotent.
    public func stop() {
        server.close()
    }

    /// Counters since the server was created or last reset.
    public func statistics() -> OriginStatistics {
        recorder.snapshot()
    }

    /// Zeroes the counters.
    public func resetStatistics() {
        recorder.reset()
    }
}

/// Answers one connection's requests, streaming bodies as fast as the socket takes them.
final class OriginHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private struct Request {
        var head: HTTPRequestHead
        var path: String
        var bodyBytes = 0
        var deflate: DeflateCounter?
    }

    private struct Response {
        var body: BodySource
        var keepAlive: Bool
        var path: String
        var deflate: DeflateCounter?
    }

    private let recorder: OriginStatisticsRecorder
    private let measuresCompressibility: Bool
    private var request: Request?
    private var response: Response?
    /// The client half-closed: answer what is in flight, then close.
    private var inputClosed = false

    init(recorder: OriginStatisticsRecorder, measuresCompressibility: Bool = false) {
        self.recorder = recorder
        self.measuresCompressibility = measuresCompressibility
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            let path = String(head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            request = Request(head: head, path: path, deflate: measuresCompressibility ? DeflateCounter() : nil)
        case let .body(buffer):
            request?.bodyBytes += buffer.readableBytes
            request?.deflate?.feed(buffer)
        case .end:
            if let request {
                self.request = nil
                if request.bodyBytes > 0, let deflated = request.deflate?.finish() {
                    recorder.deflated(path: request.path, bytes: request.bodyBytes, deflated: deflated)
                }
                respond(to: request, context: context)
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            if response != nil {
                response?.keepAlive = false
            } else if request == nil {
                context.close(promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if response != nil { sendBody(context: context) }
        context.fireChannelWritabilityChanged()
    }

    private func respond(to request: Request, context: ChannelHandlerContext) {
        let head = request.head
        var status = HTTPResponseStatus.ok
        var contentType = "application/octet-stream"
        let body: BodySource
        switch (head.method, request.path) {
        case (.GET, "/ping"):
            contentType = "text/plain"
            body = BodySource(bytes: Array("pong".utf8))
        case (.POST, let path) where path == "/upload" || path.hasPrefix("/upload/"):
            contentType = "application/json"
            body = BodySource(bytes: Array(#"{"received":\#(request.bodyBytes)}"#.utf8))
        case (.GET, let path) where path.hasPrefix("/bytes/") || path.hasPrefix("/random/") || path.hasPrefix("/json/"):
            if let source = BodySource(path: path) {
                body = source
                if path.hasPrefix("/json/") { contentType = "application/json" }
                if path.hasPrefix("/bytes/") { contentType = "text/plain" }
            } else {
                status = .badRequest
                contentType = "text/plain"
                body = BodySource(bytes: Array("bad length (0...\(OriginServer.maximumBodyLength))\n".utf8))
            }
        default:
            status = .notFound
            contentType = "text/plain"
            body = BodySource(bytes: Array("not found\n".utf8))
        }

        recorder.request(path: request.path, requestBodyBytes: request.bodyBytes, responseBodyBytes: body.remaining)

        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: contentType)
        headers.add(name: "content-length", value: String(body.remaining))
        let keepAlive = head.isKeepAlive && !inputClosed
        if !keepAlive {
            headers.add(name: "connection", value: "close")
        } else if head.version.major == 1 && head.version.minor == 0 {
            headers.add(name: "connection", value: "keep-alive")
        }
        let responseHead = HTTPResponseHead(version: head.version, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        let deflate = measuresCompressibility && body.remaining > 0 ? DeflateCounter() : nil
        response = Response(body: body, keepAlive: keepAlive, path: request.path, deflate: deflate)
        sendBody(context: context)
    }

    /// Writes body pieces while the channel is writable; resumes on writability change.
    private func sendBody(context: ChannelHandlerContext) {
        guard var current = response else { return }
        response = nil  // keep `current` uniquely referenced while generating
        while current.body.remaining > 0 && context.channel.isWritable {
            var buffer = context.channel.allocator.buffer(capacity: min(BodySource.pieceSize, current.body.remaining))
            current.body.fill(&buffer, upTo: BodySource.pieceSize)
            current.deflate?.feed(buffer)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        guard current.body.remaining == 0 else {
            response = current
            context.flush()
            return
        }
        if let deflate = current.deflate, let deflated = deflate.finish() {
            recorder.deflated(path: current.path, bytes: deflate.inputBytes, deflated: deflated)
        }
        let keepAlive = current.keepAlive
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
