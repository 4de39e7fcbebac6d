import FrugalCore
import Synchronization

/// Lock-protected counters shared by the server's connections (which run on several loops).
final class OriginStatisticsRecorder: Sendable {
    private let stats = Mutex(OriginStatistics())

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

    func snapshot() -> OriginStatistics {
        stats.withLock { $0 }
    }

    func reset() {
        stats.withLock { $0 = OriginStatistics() }
    }
}
