import FrugalProbe
import FrugalCore
import Foundation

/// Thread-safe, append-only recorder behind ``ShapingProxy/trace()``.
///
/// Connections live on different event loops, so appends take a lock. A lock per
/// released chunk is cheap next to the write syscall that goes with it (at 1 Gbit/s
/// with 64 KiB reads that is ~2,000 appends a second).
final class TraceRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var trace = ProxyTrace()
    let origin: UInt64

    init(origin: UInt64) {
        self.origin = origin
    }

    func seconds(_ now: UInt64) -> Double {
        MonotonicClock.seconds(from: origin, to: now)
    }

    func chunk(connection: Int, direction: TrafficChunk.Direction, at now: UInt64, bytes: Int) {
        let chunk = TrafficChunk(connection: connection, direction: direction, time: seconds(now), bytes: bytes)
        lock.lock()
        trace.chunks.append(chunk)
        lock.unlock()
    }

    func event(connection: Int, _ kind: ConnectionEvent.Kind, at now: UInt64 = MonotonicClock.now(), detail: String? = nil) {
        let event = ConnectionEvent(connection: connection, kind: kind, time: seconds(now), detail: detail)
        lock.lock()
        trace.events.append(event)
        lock.unlock()
    }

    func snapshot() -> ProxyTrace {
        lock.lock()
        defer { lock.unlock() }
        return trace
    }

    func reset() -> ProxyTrace {
        lock.lock()
        defer { lock.unlock() }
        let old = trace
        trace = ProxyTrace()
        return old
    }
}
