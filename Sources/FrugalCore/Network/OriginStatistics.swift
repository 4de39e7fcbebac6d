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
        /// Body bytes (either way) whose compressibility was measured: whole bodies only, so a
        /// body cut off by a reset is left out. Nil when the server did not measure.
        public var deflateInputBytes: Int?
        /// Those bytes after raw deflate (zlib level 6, `Z_DEFAULT_COMPRESSION`), each body compressed on its own.
        public var deflatedBytes: Int?
        /// What those same bodies took on the wire: fewer than `deflateInputBytes` when the server
        /// sent them with a `Content-Encoding` the client asked for. Nil in older records (the same).
        public var deflateWireBytes: Int?

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

    /// Body bytes either way on all paths.
    public var bodyBytes: Int { requestBodyBytes + responseBodyBytes }
    /// Whole-body bytes measured for compressibility on all paths; nil when nothing was measured.
    public var deflateInputBytes: Int? {
        let values = paths.values.compactMap(\.deflateInputBytes)
        return values.isEmpty ? nil : values.reduce(0, +)
    }
    /// Those bytes after deflate; nil when nothing was measured.
    public var deflatedBytes: Int? {
        let values = paths.values.compactMap(\.deflatedBytes)
        return values.isEmpty ? nil : values.reduce(0, +)
    }

    /// What the measured bodies took on the wire (their encoded size); nil when nothing was measured.
    public var deflateWireBytes: Int? {
        let values = paths.values.compactMap { $0.deflatedBytes == nil ? nil : ($0.deflateWireBytes ?? $0.deflateInputBytes) }
        return values.isEmpty ? nil : values.reduce(0, +)
    }

    /// Requests per 100 KB (100,000 bytes) of body moved either way: a measure of chattiness.
    public var requestsPer100KB: Double {
        let bytes = responseBodyBytes + requestBodyBytes
        return bytes == 0 ? 0 : Double(requests) / (Double(bytes) / 100_000)
    }
}
