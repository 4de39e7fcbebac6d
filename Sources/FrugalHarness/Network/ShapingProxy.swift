import FrugalProbe
import FrugalCore
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A traffic-shaping TCP proxy on loopback, so a workload's real sockets see a real
/// network's bandwidth, latency and failures, and every chunk that crosses it is
/// timestamped for the radio energy model.
///
/// Point the workload at `127.0.0.1:<port returned by start()>` instead of its server;
/// the proxy opens one upstream connection per client connection and forwards bytes
/// both ways through a ``ShapedStream`` per direction (delay line, then token bucket).
/// No privileges are needed: it is user-space TCP, not `tc`/`netem`.
///
/// Rate limits are shared: each direction is one link (``LinkScheduler``) for all
/// connections together, like a phone's one radio; latency applies per connection.
///
/// What it does not model: the client's TCP handshake with the proxy completes at
/// loopback speed (the kernel accepts before the proxy sees it), so a new connection
/// saves the one RTT a real handshake costs; packet loss is not modelled.
///
/// ```swift
/// let proxy = ShapingProxy(upstreamHost: "127.0.0.1", upstreamPort: originPort, profile: .threeG)
/// let port = try proxy.start()
/// defer { proxy.stop() }
/// // ... run the workload against 127.0.0.1:port ...
/// let trace = proxy.trace()
/// ```
///
/// Threading: the proxy runs on one event loop (taken from `group`), which keeps the
/// shared links lock-free and still moves several Gbit/s on loopback. Its methods may
/// be called from any thread except that event loop (`start()` and `stop()` block).
public final class ShapingProxy: Sendable {
    /// Address the proxy listens on.
    public let listenHost: String
    /// Host the proxy connects to for every accepted connection.
    public let upstreamHost: String
    /// Port the proxy connects to for every accepted connection.
    public let upstreamPort: Int
    /// The trace's time zero: monotonic nanoseconds (``MonotonicClock/now()``).
    public let origin: UInt64

    let recorder: TraceRecorder
    /// The shared device → origin link.
    let uplink: NIOLoopBoundBox<LinkScheduler>
    /// The shared origin → device link.
    let downlink: NIOLoopBoundBox<LinkScheduler>
    private let requestedPort: Int
    /// The one loop every channel of the proxy runs on.
    private let loop: EventLoop
    private let server = BoundServer()

    private struct State {
        var currentProfile: NetworkProfile
        var faults = FaultSchedule()
        /// Open connections, each usable only on `loop`.
        var connections: [Int: NIOLoopBound<ProxyConnection>] = [:]
        var nextConnectionID = 1
        var counters = ProxyStatistics()
    }

    private let state: Mutex<State>

    /// Creates a stopped proxy.
    ///
    /// - Parameters:
    ///   - listenHost: address to listen on; keep it on loopback.
    ///   - listenPort: port to listen on; 0 picks a free one (see ``start()``).
    ///   - upstreamHost: the real server's host.
    ///   - upstreamPort: the real server's port.
    ///   - profile: network conditions to impose from the start.
    ///   - origin: the run's time zero in monotonic nanoseconds; chunk and event times are relative to it.
    ///   - group: where to take the proxy's event loop from; by default NIO's shared group.
    public init(
        listenHost: String = "127.0.0.1",
        listenPort: Int = 0,
        upstreamHost: String,
        upstreamPort: Int,
        profile: NetworkProfile = .unshaped,
        origin: UInt64 = MonotonicClock.now(),
        group: EventLoopGroup? = nil
    ) {
        self.listenHost = listenHost
        self.requestedPort = listenPort
        self.upstreamHost = upstreamHost
        self.upstreamPort = upstreamPort
        self.state = Mutex(State(currentProfile: profile))
        self.origin = origin
        self.recorder = TraceRecorder(origin: origin)
        self.loop = (group ?? BoundServer.defaultGroup).next()
        self.uplink = .makeBoxSendingValue(LinkScheduler(direction: .uplink, bitsPerSecond: profile.uplinkBitsPerSecond, eventLoop: loop),
                                           eventLoop: loop)
        self.downlink = .makeBoxSendingValue(LinkScheduler(direction: .downlink, bitsPerSecond: profile.downlinkBitsPerSecond, eventLoop: loop),
                                             eventLoop: loop)
    }

    /// Starts listening and returns the bound port.
    @discardableResult
    public func start() throws -> Int {
        let bootstrap = ServerBootstrap(group: loop)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Reads are pulled by each ShapedStream, never pushed: that is the backpressure.
            .childChannelOption(.autoRead, value: false)
            // A FIN from one side must become a half-close on the other, not a full close.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            // Shaped pieces are small and timed; Nagle + delayed ACK would add ~40 ms stalls.
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let connection = accept(channel)
                    try channel.pipeline.syncOperations.addHandler(
                        ProxySideHandler(side: .client, connection: connection)
                    )
                }
            }
        return try server.bind(bootstrap, host: listenHost, port: requestedPort)
    }

    /// The port the proxy listens on, once started.
    public var port: Int? { server.port }

    /// Stops listening and closes every open connection (recorded as `close`, "proxy
    /// stopped"). Idempotent.
    public func stop() {
        guard server.close() else { return }
        let open = state.withLock { Array($0.connections.values) }
        try? loop.submit { [self] in
            for connection in open {
                connection.value.finish(detail: "proxy stopped")
            }
            uplink.value.shutdown()
            downlink.value.shutdown()
        }.wait()
    }

    // MARK: Profile and faults

    /// The network conditions in force.
    public var profile: NetworkProfile { state.withLock { $0.currentProfile } }

    /// Changes the network conditions, for new *and open* connections:
    ///
    /// - Rates change at once for bytes not yet released (queued bytes included); the
    ///   token bucket keeps the tokens it has, capped at the new depth.
    /// - Latency and jitter apply to bytes read after the change; bytes already in the
    ///   delay line keep their release time (never reordered).
    /// - Going offline resets every open connection (RST both ways, `reset` event) and
    ///   refuses new ones (`refused` event). Coming back online accepts new connections;
    ///   connections reset while offline stay gone, as on a real phone.
    public func setProfile(_ profile: NetworkProfile) {
        let open = state.withLock { state in
            state.currentProfile = profile
            return Array(state.connections.values)
        }
        loop.execute { [self] in
            uplink.value.setRate(bitsPerSecond: profile.uplinkBitsPerSecond)
            downlink.value.setRate(bitsPerSecond: profile.downlinkBitsPerSecond)
            for connection in open {
                connection.value.apply(profile)
            }
        }
    }

    /// Injects `fault` into the next `connections` accepted connections, or into every
    /// connection accepted until ``clearFaults()`` when `connections` is `nil`.
    /// Open connections are not affected; see ``ProxyFault`` for what each fault does.
    public func inject(_ fault: ProxyFault, connections: Int? = nil) {
        state.withLock { $0.faults.add(fault, connections: connections) }
    }

    /// Removes every fault waiting for future connections.
    public func clearFaults() {
        state.withLock { $0.faults.clear() }
    }

    // MARK: Trace and statistics

    /// A copy of everything recorded so far.
    public func trace() -> ProxyTrace {
        recorder.snapshot()
    }

    /// Returns everything recorded so far and starts an empty trace (same origin).
    public func takeTrace() -> ProxyTrace {
        recorder.reset()
    }

    /// The local port of each connection's socket to the upstream → the connection's id: how the
    /// upstream (the run's origin) names the proxy connection a request came on.
    public func upstreamPorts() -> [Int: Int] {
        recorder.upstreamPorts()
    }

    /// Counters since the proxy was created.
    public func statistics() -> ProxyStatistics {
        state.withLock { state in
            var stats = state.counters
            stats.openConnections = state.connections.count
            return stats
        }
    }

    // MARK: Internal

    /// Decides, at accept time, what a new connection is: refused, or forwarded with
    /// the profile and the faults in force right now.
    /// Runs on `loop`, in the accepted channel's initializer.
    private func accept(_ channel: Channel) -> ProxyConnection {
        let connection = state.withLock { state -> NIOLoopBound<ProxyConnection> in
            let id = state.nextConnectionID
            state.nextConnectionID += 1
            state.counters.acceptedConnections += 1
            let profile = state.currentProfile
            var refusal: String?
            var taken: [ProxyFault] = []
            if profile.isOffline {
                refusal = "offline"
            } else {
                taken = state.faults.take()
                if taken.contains(.refuse) { refusal = "fault: refuse" }
            }
            let connection = NIOLoopBound(ProxyConnection(
                id: id, client: channel, proxy: self, profile: profile, faults: taken, refusal: refusal
            ), eventLoop: loop)
            if refusal == nil {
                state.connections[id] = connection
            } else {
                state.counters.refusedConnections += 1
            }
            return connection
        }
        return connection.value
    }

    func unregister(_ connection: ProxyConnection) {
        state.withLock { $0.connections[connection.id] = nil }
    }

    func noteQueued(_ bytes: Int) {
        state.withLock { state in
            if bytes > state.counters.peakQueuedBytes { state.counters.peakQueuedBytes = bytes }
        }
    }
}

/// Counters of a ``ShapingProxy``.
public struct ProxyStatistics: Codable, Sendable, Equatable {
    /// Connections accepted by the listening socket, refused ones included.
    public var acceptedConnections = 0
    /// Connections refused (offline or a `refuse` fault).
    public var refusedConnections = 0
    /// Connections open now.
    public var openConnections = 0
    /// The most bytes ever queued in one direction of one connection: a check that
    /// backpressure holds memory to the delay line's budget.
    public var peakQueuedBytes = 0

    public init() {}
}
