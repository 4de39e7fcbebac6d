/// Something that happened to one proxied TCP connection, other than bytes moving.
public struct ConnectionEvent: Codable, Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Codable, Sendable {
        /// The client's connection was accepted and will be forwarded.
        case open
        /// The connection ended normally: both directions delivered their FIN, or the proxy stopped.
        case close
        /// The connection was torn down with a TCP reset: a fault, going offline, an upstream
        /// that could not be reached, or a reset or socket error on either side.
        case reset
        /// The connection was accepted and immediately reset without forwarding (offline or a `refuse` fault).
        case refused
        /// A `stall` fault stopped forwarding one direction; the connection stays open.
        case stall
    }

    /// The proxy's id for the connection (the same id as in its ``TrafficChunk``s).
    public var connection: Int
    public var kind: Kind
    /// Seconds since the run's start (monotonic clock).
    public var time: Double
    /// Why, in words (e.g. the fault or the socket error); `nil` when obvious.
    public var detail: String?
    /// For a refused connection: the request the client sent on it before the reset
    /// (`POST /upload/notes`, from its first line), when it sent one in plain HTTP; nil for a
    /// client that sent nothing first, or TLS. For a reset: the request the client had sent that
    /// the reset cut before any of it was forwarded (a kept-alive connection reused as the network
    /// went offline), named the same way.
    public var request: String?

    public init(connection: Int, kind: Kind, time: Double, detail: String? = nil, request: String? = nil) {
        self.request = request
        self.connection = connection
        self.kind = kind
        self.time = time
        self.detail = detail
    }
}

/// Everything the shaping proxy saw during a run: every chunk it released and every
/// connection event, each in the order it happened.
public struct ProxyTrace: Codable, Sendable, Equatable {
    /// Chunks in release order (times are non-decreasing per connection and direction).
    public var chunks: [TrafficChunk]
    /// Connection events in the order they were recorded.
    public var events: [ConnectionEvent]

    public init(chunks: [TrafficChunk] = [], events: [ConnectionEvent] = []) {
        self.chunks = chunks
        self.events = events
    }

    /// Total bytes released in `direction`, over all connections.
    public func totalBytes(_ direction: TrafficChunk.Direction) -> Int {
        chunks.reduce(0) { $1.direction == direction ? $0 + $1.bytes : $0 }
    }

    /// Total bytes released in `direction` on `connection`.
    public func totalBytes(_ direction: TrafficChunk.Direction, connection: Int) -> Int {
        chunks.reduce(0) { $1.direction == direction && $1.connection == connection ? $0 + $1.bytes : $0 }
    }

    /// The ids of all connections that appear in the trace, ascending.
    public var connections: [Int] {
        Array(Set(chunks.map(\.connection) + events.map(\.connection))).sorted()
    }

    /// Events of `kind`, optionally only for one connection.
    public func events(_ kind: ConnectionEvent.Kind, connection: Int? = nil) -> [ConnectionEvent] {
        events.filter { $0.kind == kind && (connection == nil || $0.connection == connection) }
    }
}

