import FrugalProbe
import FrugalCore
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection through the proxy: the accepted client channel, the upstream
/// channel the proxy opens for it, and a ``ShapedStream`` for each direction.
///
/// Both channels live on the proxy's single event loop (the upstream is connected on the
/// client channel's loop), so all state here, and the shared links, are confined to that
/// loop and need no locks; other threads reach it only through `eventLoop.execute`.
///
/// Lifecycle: accepted → (refused | connecting → open) → closed. It closes normally
/// (`close` event) when both directions have delivered their FIN, when one side goes
/// away cleanly, or when the proxy stops; it resets (`reset` event, RST to both sides)
/// on a fault, on going offline, when the upstream cannot be reached, or when either
/// socket fails (a reset from one peer is passed on to the other as a reset).
final class ProxyConnection {
    enum Side: String {
        case client, upstream
    }

    private enum Phase {
        /// `refusing`: refused, reading the client's first line before the reset (`RefusedRequest`).
        case accepted, refusing, connecting, open, closed
    }

    let id: Int
    let client: Channel
    var eventLoop: EventLoop { client.eventLoop }
    private var upstream: Channel?
    private let proxy: ShapingProxy
    private var profile: NetworkProfile
    private let faults: [ProxyFault]
    private let refusal: String?
    private var phase = Phase.accepted
    private var uplink: ShapedStream?
    private var downlink: ShapedStream?
    /// Client bytes (and FIN) read before the upstream connected, with their read times.
    /// With `autoRead` off the proxy never asks for them, but NIO drains a socket
    /// synchronously when it reports EOF (RDHUP), so a client that sends and half-closes
    /// at once delivers everything early. They enter the delay line as of when they were read.
    private var early: [(buffer: ByteBuffer, readAt: UInt64)] = []
    private var earlyEOF: UInt64?
    /// A refused connection's first bytes, and when it was refused (``RefusedRequest``).
    private var refused = RefusedRequest()
    private var refusedAt: UInt64 = 0

    /// - Parameter refusal: when non-nil, the connection is refused on activation, for this reason.
    init(id: Int, client: Channel, proxy: ShapingProxy, profile: NetworkProfile, faults: [ProxyFault], refusal: String?) {
        self.id = id
        self.client = client
        self.proxy = proxy
        self.profile = profile
        self.faults = faults
        self.refusal = refusal
    }

    // MARK: Lifecycle

    /// The client channel is active: refuse it, or connect upstream.
    func clientActive() {
        guard phase == .accepted else { return }
        if refusal != nil {
            beginRefusal()
            return
        }
        phase = .connecting
        proxy.recorder.event(connection: id, .open)
        // The upstream channel is made on this loop too, so its initializer may use `self`.
        let bound = NIOLoopBound(self, eventLoop: client.eventLoop)
        ClientBootstrap(group: client.eventLoop)
            .channelOption(.autoRead, value: false)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProxySideHandler(side: .upstream, connection: bound.value))
                }
            }
            .connect(host: proxy.upstreamHost, port: proxy.upstreamPort)
            .assumeIsolated()
            .whenComplete { [self] result in
                switch result {
                case let .success(channel):
                    upstreamConnected(channel)
                case let .failure(error):
                    reset(detail: "upstream \(proxy.upstreamHost):\(proxy.upstreamPort) unreachable: \(error)")
                }
            }
    }

    private func upstreamConnected(_ channel: Channel) {
        guard phase == .connecting else {
            // Closed (stopped, or offline) while connecting.
            channel.close(promise: nil)
            return
        }
        upstream = channel
        phase = .open
        proxy.recorder.upstreamPort(channel.localAddress?.port, connection: id)
        if profile.isOffline {
            reset(detail: "offline")
            return
        }
        let up = ShapedStream(
            direction: .uplink, source: client, sink: channel, connection: self,
            link: proxy.uplink.value, profile: profile, faults: faults
        )
        let down = ShapedStream(
            direction: .downlink, source: channel, sink: client, connection: self,
            link: proxy.downlink.value, profile: profile, faults: faults
        )
        uplink = up
        downlink = down
        if up.resetsImmediately || down.resetsImmediately {
            reset(detail: "fault: resetAfter 0 bytes")
            return
        }
        // Start first (a stall at 0 bytes must hold the early bytes too), then replay in
        // order; `start` only arms a read, so nothing newer can overtake them.
        up.start()
        down.start()
        for (buffer, readAt) in early {
            up.received(buffer, readAt: readAt)
        }
        early = []
        if let earlyEOF {
            up.sourceClosed(readAt: earlyEOF)
        }
    }

    /// Applies a new profile to this open connection (see ``ShapingProxy/setProfile(_:)``).
    func apply(_ profile: NetworkProfile) {
        guard phase != .closed else { return }
        self.profile = profile
        if profile.isOffline {
            reset(detail: "offline")
            return
        }
        uplink?.apply(profile)
        downlink?.apply(profile)
    }

    /// Ends the connection normally (FIN to both sides) and records a `close` event.
    func finish(detail: String?) {
        guard phase != .closed else { return }
        phase = .closed
        uplink?.halt()
        downlink?.halt()
        client.close(promise: nil)
        upstream?.close(promise: nil)
        proxy.recorder.event(connection: id, .close, detail: detail)
        proxy.unregister(self)
    }

    /// Tears the connection down with a TCP reset on both sides.
    func reset(detail: String) {
        guard phase != .closed else { return }
        phase = .closed
        // A request the client had sent that the reset cut before any of it was forwarded (a
        // kept-alive connection reused just as the network went offline): named, as a refusal's is.
        let unsent = uplink?.unreleasedPrefix(RefusedRequest.readLimit) ?? early.flatMap { Array($0.buffer.readableBytesView) }
        uplink?.halt()
        downlink?.halt()
        resetChannels(detail: detail, request: RefusedRequest.label(firstLineOf: Array(unsent.prefix(RefusedRequest.readLimit))))
    }

    /// Resets the connection once `write` (the last permitted bytes) reached the kernel,
    /// so the receiver gets them before the RST. Nothing else moves in the meantime.
    func resetAfterWrite(_ write: EventLoopFuture<Void>, detail: String) {
        guard phase != .closed else { return }
        phase = .closed
        uplink?.halt()
        downlink?.halt()
        write.assumeIsolated().whenComplete { [self] _ in resetChannels(detail: detail) }
    }

    private func resetChannels(detail: String, request: String? = nil) {
        Self.reset(client)
        if let upstream { Self.reset(upstream) }
        proxy.recorder.event(connection: id, .reset, detail: detail, request: request)
        proxy.unregister(self)
    }

    /// Closes `channel` with `SO_LINGER` {on, 0}: `close()` then sends RST instead of FIN
    /// and discards unsent data, which is how a reset is produced from user space.
    static func reset(_ channel: Channel) {
        guard let provider = channel as? SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    // MARK: Refusal

    /// Refused: read the client's first line (at most `RefusedRequest.deadline`), then reset.
    private func beginRefusal() {
        phase = .refusing
        refusedAt = MonotonicClock.now()
        client.read()
        client.eventLoop.assumeIsolated().scheduleTask(in: RefusedRequest.deadline) { [self] in finishRefusal() }
    }

    private func refusalRead(_ buffer: ByteBuffer) {
        if refused.add(buffer) { finishRefusal() } else { client.read() }
    }

    /// Records the refusal as of when it happened, with the request the client sent, and resets.
    private func finishRefusal() {
        guard phase == .refusing else { return }
        phase = .closed
        proxy.recorder.event(connection: id, .refused, at: refusedAt, detail: refusal, request: refused.label)
        Self.reset(client)
    }

    // MARK: Events from the streams

    func recordChunk(direction: TrafficChunk.Direction, at now: UInt64, bytes: Int) {
        proxy.recorder.chunk(connection: id, direction: direction, at: now, bytes: bytes)
    }

    func noteQueued(_ bytes: Int) {
        proxy.noteQueued(bytes)
    }

    func streamStalled(_ stream: ShapedStream) {
        proxy.recorder.event(
            connection: id, .stall,
            detail: "\(stream.direction.rawValue) stalled after \(stream.releasedBytes) bytes"
        )
    }

    /// A stream delivered its FIN or was abandoned: once both are done, the connection is.
    func streamFinished(_ stream: ShapedStream) {
        if uplink?.isFinished == true && downlink?.isFinished == true {
            finish(detail: nil)
        }
    }

    // MARK: Events from the channels

    private func stream(from side: Side) -> ShapedStream? {
        side == .client ? uplink : downlink
    }

    private func stream(into side: Side) -> ShapedStream? {
        side == .client ? downlink : uplink
    }

    func received(_ buffer: ByteBuffer, from side: Side) {
        if phase == .refusing, side == .client {
            refusalRead(buffer)
            return
        }
        if let stream = stream(from: side) {
            stream.received(buffer, readAt: MonotonicClock.now())
        } else if side == .client && phase != .closed {
            early.append((buffer, MonotonicClock.now()))
        }
    }

    func readComplete(from side: Side) {
        stream(from: side)?.readComplete()
    }

    func inputClosed(from side: Side) {
        if phase == .refusing, side == .client {
            finishRefusal()
            return
        }
        if let stream = stream(from: side) {
            stream.sourceClosed(readAt: MonotonicClock.now())
        } else if side == .client && phase != .closed {
            earlyEOF = MonotonicClock.now()
        }
    }

    func writabilityChanged(of side: Side) {
        stream(into: side)?.sinkWritabilityChanged()
    }

    func failed(_ side: Side, error: Error) {
        // A reset or socket error on one side is passed on as a reset to the other, behind
        // what that side sent before it (still in the delay line), as a real link orders them.
        let detail = "\(side.rawValue) error: \(error)"
        if phase == .open, let from = stream(from: side), !from.sourceEOF, from.queuedBytes > 0 {
            from.sourceReset(readAt: MonotonicClock.now(), detail: detail)
            // Nothing more can be delivered to the side that failed.
            if let into = stream(into: side), !into.isFinished { into.abandon() }
            return
        }
        reset(detail: detail)
    }

    func inactive(_ side: Side) {
        guard phase != .closed else { return }
        guard phase == .open, let from = stream(from: side), let into = stream(into: side) else {
            finish(detail: "\(side.rawValue) closed before the upstream connected")
            return
        }
        // Errors and resets arrive through `failed` first, so this is an orderly close.
        // NIO closes a channel fully, without an `inputClosed` event, when its input ends
        // after its output was shut down; so inactivity counts as this side's FIN: what it
        // sent still crosses the delay line, then the FIN. Bytes still queued *for* this
        // side can no longer be delivered and are dropped.
        if !from.sourceEOF {
            from.sourceClosed(readAt: MonotonicClock.now())
        }
        if !into.isFinished {
            into.abandon()
        }
        streamFinished(into)
    }
}

/// Bridges one channel's pipeline events to its ``ProxyConnection``.
final class ProxySideHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let side: ProxyConnection.Side
    let connection: ProxyConnection

    init(side: ProxyConnection.Side, connection: ProxyConnection) {
        self.side = side
        self.connection = connection
    }

    func channelActive(context: ChannelHandlerContext) {
        if side == .client { connection.clientActive() }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.received(unwrapInboundIn(data), from: side)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        connection.readComplete(from: side)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            connection.inputClosed(from: side)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        connection.writabilityChanged(of: side)
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        connection.failed(side, error: error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.inactive(side)
        context.fireChannelInactive()
    }
}
