import FrugalProbe
import FrugalCore
import Synchronization

/// Thread-safe, append-only recorder behind ``ShapingProxy/trace()``.
///
/// Connections live on different event loops, so appends take a lock. A lock per
/// released chunk is cheap next to the write syscall that goes with it (at 1 Gbit/s
/// with 64 KiB reads that is ~2,000 appends a second).
final class TraceRecorder: Sendable {
    private let trace = Mutex(ProxyTrace())
    /// The local port of each connection's upstream socket → the connection's id.
    private let ports = Mutex<[Int: Int]>([:])
    let origin: UInt64

    func upstreamPort(_ port: Int?, connection: Int) {
        guard let port else { return }
        ports.withLock { $0[port] = connection }
    }

    func upstreamPorts() -> [Int: Int] {
        ports.withLock { $0 }
    }

    init(origin: UInt64) {
        self.origin = origin
    }

    func seconds(_ now: UInt64) -> Double {
        MonotonicClock.seconds(from: origin, to: now)
    }

    func chunk(connection: Int, direction: TrafficChunk.Direction, at now: UInt64, bytes: Int) {
        let chunk = TrafficChunk(connection: connection, direction: direction, time: seconds(now), bytes: bytes)
        trace.withLock { $0.chunks.append(chunk) }
    }

    func event(connection: Int, _ kind: ConnectionEvent.Kind, at now: UInt64 = MonotonicClock.now(), detail: String? = nil, request: String? = nil) {
        let event = ConnectionEvent(connection: connection, kind: kind, time: seconds(now), detail: detail, request: request)
        trace.withLock { $0.events.append(event) }
    }

    func snapshot() -> ProxyTrace {
        trace.withLock { $0 }
    }

    func reset() -> ProxyTrace {
        trace.withLock { trace in
            defer { trace = ProxyTrace() }
            return trace
        }
    }
}
