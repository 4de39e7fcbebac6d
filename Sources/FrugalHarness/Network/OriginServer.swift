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
/// Those are the built-in workloads' server (``SyntheticResponder``). A run that serves the app's
/// own responses gives the server another ``OriginResponder`` instead: a fixture directory
/// (``FixtureResponder``), a HAR file (``HARResponder``) or a real server being recorded
/// (``UpstreamResponder``). Whichever answers, the server honours `Accept-Encoding` and
/// `If-None-Match` (``ResponseEncoding``) and logs every request (``wireRequests(origin:)``).
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
    private let log = WireRequestLog()
    /// What answers the requests.
    public let responder: any OriginResponder
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
    ///   - responder: what answers requests; by default the synthetic routes.
    ///   - certificateAuthority: when given, `CONNECT host:port` is answered with a TLS tunnel
    ///     whose certificate for `host` this CA signs, and the requests inside are served as plain ones.
    public init(host: String = "127.0.0.1", port: Int = 0, group: EventLoopGroup? = nil, measuresCompressibility: Bool = false,
                responder: any OriginResponder = SyntheticResponder(), certificateAuthority: RunCertificateAuthority? = nil) {
        self.host = host
        self.responder = responder
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
        let log = self.log
        let responder = self.responder
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
                    // The byte counter sits nearest the socket: its counts place each request on the proxy's trace.
                    let wire = ConnectionWire(number: log.nextConnectionNumber(), peerPort: channel.remoteAddress?.port)
                    try channel.pipeline.syncOperations.addHandler(WireByteCounter(wire: wire))
                    // HTTPS: a CONNECT becomes TLS in front of the same HTTP handlers, behind the byte
                    // counter, which so counts TLS records: the bytes the proxy sees.
                    if let authority { try channel.pipeline.syncOperations.addHandler(ConnectTunnelHandler(authority: authority)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(OriginHandler(
                        recorder: recorder, measuresCompressibility: measures, responder: responder, log: log, wire: wire))
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

    /// Every request answered so far, times in seconds since `origin` (monotonic ns) as the
    /// origin saw them; `connections` maps the proxy's upstream ports to its connection ids
    /// (``ShapingProxy/upstreamPorts()``), so each request names its proxy connection.
    public func wireRequests(origin: UInt64, connections: [Int: Int] = [:]) -> [WireRequest] {
        log.snapshot(origin: origin, connections: connections)
    }

    /// Requests answered but not logged: past ``WireRequestLog``'s capacity of 100,000.
    public var unloggedRequests: Int { log.droppedCount }

    /// Zeroes the counters.
    public func resetStatistics() {
        recorder.reset()
    }
}

