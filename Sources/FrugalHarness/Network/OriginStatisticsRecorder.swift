import Foundation
import FrugalCore

/// Lock-protected counters shared by the server's connections (which run on several loops).
final class OriginStatisticsRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stats = OriginStatistics()

    func connectionAccepted() {
        lock.lock()
        stats.connections += 1
        lock.unlock()
    }

    func request(path: String, requestBodyBytes: Int, responseBodyBytes: Int) {
        lock.lock()
        stats.paths[path, default: .init()].requests += 1
        stats.paths[path, default: .init()].requestBodyBytes += requestBodyBytes
        stats.paths[path, default: .init()].responseBodyBytes += responseBodyBytes
        lock.unlock()
    }

    /// One whole body of `bytes` bytes on `path` deflated to `deflated` bytes.
    func deflated(path: String, bytes: Int, deflated: Int) {
        lock.lock()
        stats.paths[path, default: .init()].deflateInputBytes = (stats.paths[path]?.deflateInputBytes ?? 0) + bytes
        stats.paths[path, default: .init()].deflatedBytes = (stats.paths[path]?.deflatedBytes ?? 0) + deflated
        lock.unlock()
    }

    func snapshot() -> OriginStatistics {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }

    func reset() {
        lock.lock()
        stats = OriginStatistics()
        lock.unlock()
    }
}
