/// A stretch of traffic the radio serves as one active period.
///
/// Chunks are instants (the proxy's timestamps); a run spans from its first
/// chunk to its last, and consecutive chunks in a run are at most the profile's
/// `activeHoldSeconds` apart. A single chunk is a run of zero length.
public struct ActiveRun: Codable, Sendable, Equatable {
    /// Time of the first chunk.
    public var start: Double
    /// Time of the last chunk.
    public var end: Double
    /// Bytes the device sent during the run.
    public var uplinkBytes: Int
    /// Bytes the device received during the run.
    public var downlinkBytes: Int
    /// Number of chunks in the run.
    public var chunkCount: Int

    /// Creates a run from explicit figures.
    public init(start: Double, end: Double, uplinkBytes: Int, downlinkBytes: Int, chunkCount: Int) {
        precondition(end >= start, "an active run cannot end before it starts")
        self.start = start
        self.end = end
        self.uplinkBytes = uplinkBytes
        self.downlinkBytes = downlinkBytes
        self.chunkCount = chunkCount
    }

    /// Length in seconds.
    public var duration: Double { end - start }

    /// Groups chunks (any order) into runs, starting a new run after a silence longer than `holdSeconds`.
    public static func group(_ chunks: [TrafficChunk], holdSeconds: Double) -> [ActiveRun] {
        var runs: [ActiveRun] = []
        for chunk in chunks.sortedByTime() {
            let up = chunk.direction == .uplink ? chunk.bytes : 0
            let down = chunk.direction == .downlink ? chunk.bytes : 0
            if var last = runs.last, chunk.time - last.end <= holdSeconds {
                last.end = chunk.time
                last.uplinkBytes += up
                last.downlinkBytes += down
                last.chunkCount += 1
                runs[runs.count - 1] = last
            } else {
                runs.append(ActiveRun(
                    start: chunk.time, end: chunk.time,
                    uplinkBytes: up, downlinkBytes: down, chunkCount: 1
                ))
            }
        }
        return runs
    }
}
