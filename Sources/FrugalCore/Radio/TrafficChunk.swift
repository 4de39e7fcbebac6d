/// One chunk of bytes moved through Frugal's shaping proxy, as the radio sees it.
public struct TrafficChunk: Codable, Sendable, Equatable {
    /// Which way the bytes went, seen from the device.
    public enum Direction: String, Codable, Sendable { case uplink, downlink }
    /// The proxy's id for the TCP connection the chunk belongs to.
    public var connection: Int
    public var direction: Direction
    /// Seconds since the run's start (monotonic clock).
    public var time: Double
    public var bytes: Int
    public init(connection: Int, direction: Direction, time: Double, bytes: Int) {
        self.connection = connection
        self.direction = direction
        self.time = time
        self.bytes = bytes
    }
}
