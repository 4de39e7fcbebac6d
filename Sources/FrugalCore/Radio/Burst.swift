/// A cluster of chunks with no silence longer than the burst threshold inside it (ARO's burst).
public struct Burst: Codable, Sendable, Equatable {
    /// Time of the first chunk.
    public var start: Double
    /// Time of the last chunk.
    public var end: Double
    /// Bytes the device sent in the burst.
    public var uplinkBytes: Int
    /// Bytes the device received in the burst.
    public var downlinkBytes: Int
    /// Number of chunks in the burst.
    public var chunkCount: Int
    /// Proxy connection ids seen in the burst, ascending.
    public var connections: [Int]

    /// Creates a burst from explicit figures.
    public init(start: Double, end: Double, uplinkBytes: Int, downlinkBytes: Int, chunkCount: Int, connections: [Int]) {
        self.start = start
        self.end = end
        self.uplinkBytes = uplinkBytes
        self.downlinkBytes = downlinkBytes
        self.chunkCount = chunkCount
        self.connections = connections
    }

    /// Length in seconds (zero for a single chunk).
    public var duration: Double { end - start }
}
