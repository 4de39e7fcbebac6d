import NIOCore
import NIOPosix
import Synchronization

/// A listening server channel's life, shared by ``OriginServer`` and ``ShapingProxy``: bind it
/// (reporting the port), then close it once. `bind` and `close` wait for NIO, so call them from
/// a thread of the caller's, never from an event loop (NIO's `wait()` refuses there).
final class BoundServer: Sendable {
    private struct State {
        var channel: Channel?
        var port: Int?
        var closed = false
    }

    private let state = Mutex(State())

    /// The event loops servers use unless told otherwise: NIO's process-wide group, created on
    /// first use and never shut down (a run shares one group of its own between its proxy and
    /// its origin, `RunNetwork`).
    static var defaultGroup: EventLoopGroup { MultiThreadedEventLoopGroup.singleton }

    /// Binds `bootstrap` to `host:port` (0 picks a free port) and returns the port bound.
    func bind(_ bootstrap: ServerBootstrap, host: String, port: Int) throws -> Int {
        let channel = try bootstrap.bind(host: host, port: port).wait()
        let bound = channel.localAddress?.port ?? port
        state.withLock { state in
            state.channel = channel
            state.port = bound
        }
        return bound
    }

    /// The port bound, once `bind` succeeded.
    var port: Int? { state.withLock { $0.port } }

    /// Closes the listening channel (open connections stay); returns false when it was closed
    /// already, so callers can make their own `stop()` idempotent.
    @discardableResult
    func close() -> Bool {
        let (first, channel) = state.withLock { state -> (Bool, Channel?) in
            defer {
                state.closed = true
                state.channel = nil
            }
            return (!state.closed, state.channel)
        }
        try? channel?.close().wait()
        return first
    }
}
