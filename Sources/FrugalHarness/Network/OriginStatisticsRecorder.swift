import Dispatch
import FrugalCore
import Synchronization

/// Lock-protected counters shared by the server's connections (which run on several loops).
final class OriginStatisticsRecorder: Sendable {
    private let stats = Mutex(OriginStatistics())
    /// Where whole bodies are deflated to measure them, off the event loops (``deflateLater``).
    private let measuring = DispatchQueue(label: "frugal.origin.deflate", qos: .utility)
    private let pending = DispatchGroup()

    func connectionAccepted() {
        stats.withLock { $0.connections += 1 }
    }

    func request(path: String, requestBodyBytes: Int, responseBodyBytes: Int) {
        stats.withLock { stats in
            stats.paths[path, default: .init()].requests += 1
            stats.paths[path, default: .init()].requestBodyBytes += requestBodyBytes
            stats.paths[path, default: .init()].responseBodyBytes += responseBodyBytes
        }
    }

    /// One whole body of `bytes` bytes on `path` deflated to `deflated` bytes.
    func deflated(path: String, bytes: Int, deflated: Int, wireBytes: Int? = nil) {
        stats.withLock { stats in
            stats.paths[path, default: .init()].deflateWireBytes = (stats.paths[path]?.deflateWireBytes ?? 0) + (wireBytes ?? bytes)
            stats.paths[path, default: .init()].deflateInputBytes = (stats.paths[path]?.deflateInputBytes ?? 0) + bytes
            stats.paths[path, default: .init()].deflatedBytes = (stats.paths[path]?.deflatedBytes ?? 0) + deflated
        }
    }

    /// Measures how `body` (sent on `path` as `wireBytes`) deflates, after the response has
    /// gone: deflating a 1 MB fixture at zlib's level 6 took the origin's event loop tens of
    /// milliseconds, hundreds on a loaded machine, and the app waited that long for its first
    /// byte (a megabyte on 3G arrived 4% late in CI). The measurement is the harness's, so the
    /// app must not wait for it. ``snapshot()`` waits for measurements still under way.
    func deflateLater(path: String, body: [UInt8], wireBytes: Int) {
        measuring.async(group: pending) { [self] in
            let counter = DeflateCounter()
            body.withUnsafeBytes { counter.feed($0) }
            if let deflated = counter.finish() {
                self.deflated(path: path, bytes: body.count, deflated: deflated, wireBytes: wireBytes)
            }
        }
    }

    /// The counters, once the deflate measurements already asked for have ended (at most 30 s:
    /// a gigabyte deflates in about that on this kind of machine).
    func snapshot() -> OriginStatistics {
        _ = pending.wait(timeout: .now() + 30)
        return stats.withLock { $0 }
    }

    func reset() {
        stats.withLock { $0 = OriginStatistics() }
    }
}
