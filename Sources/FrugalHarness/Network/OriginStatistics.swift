import Foundation

/// What ``OriginServer`` has served: requests and body bytes per path, so a run can
/// report e.g. round trips per 100 KB.
public struct OriginStatistics: Codable, Sendable, Equatable {
    /// Counters for one path (the request target without its query string).
    public struct PathStatistics: Codable, Sendable, Equatable {
        /// Requests answered.
        public var requests = 0
        /// Request body bytes received (uploads).
        public var requestBodyBytes = 0
        /// Response body bytes sent (headers excluded).
        public var responseBodyBytes = 0

        public init() {}
    }

    /// TCP connections accepted (fewer than requests when keep-alive reuses them).
    public var connections = 0
    /// Counters per path, e.g. `"/bytes/1000"`.
    public var paths: [String: PathStatistics] = [:]

    public init() {}

    /// Requests answered on all paths.
    public var requests: Int { paths.values.reduce(0) { $0 + $1.requests } }
    /// Response body bytes on all paths.
    public var responseBodyBytes: Int { paths.values.reduce(0) { $0 + $1.responseBodyBytes } }
    /// Request body bytes on all paths.
    public var requestBodyBytes: Int { paths.values.reduce(0) { $0 + $1.requestBodyBytes } }

    /// Requests per 100 KB (100,000 bytes) of body moved either way: a measure of chattiness.
    public var requestsPer100KB: Double {
        let bytes = responseBodyBytes + requestBodyBytes
        return bytes == 0 ? 0 : Double(requests) / (Double(bytes) / 100_000)
    }
}

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
