import FrugalCore
import Foundation

/// A failure the shaping proxy injects into TCP connections.
///
/// Names follow toxiproxy's vocabulary where it has one (`reset_peer`, `timeout`,
/// `limit_data`); byte counts are per connection and per direction, counting only
/// bytes the proxy has released downstream.
public enum ProxyFault: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Forward exactly `bytes` bytes in `direction`, then reset both sides of the connection
    /// with a TCP RST (`SO_LINGER` 0). The receiver gets all `bytes` bytes, then `ECONNRESET`
    /// (or EOF). Like toxiproxy's `limit_data`, but with RST instead of FIN, which is what
    /// toxiproxy's `reset_peer` sends. `bytes: 0` resets as soon as the upstream is connected.
    case resetAfter(bytes: Int, direction: TrafficChunk.Direction)
    /// Forward `afterBytes` bytes in `direction`, then stop forwarding that direction and stop
    /// reading its source, keeping the connection open (toxiproxy's `timeout` with timeout 0).
    /// The other direction keeps flowing. The stall lasts for the connection's life.
    case stall(afterBytes: Int, direction: TrafficChunk.Direction = .downlink)
    /// Accept the TCP connection (the kernel already completed the handshake) and reset it at
    /// once, before forwarding anything: the client's first read or write fails with `ECONNRESET`.
    /// Closer to a refused connection than closing with FIN, which would look like a server reply.
    case refuse

    public var description: String {
        switch self {
        case let .resetAfter(bytes, direction): return "resetAfter(bytes: \(bytes), direction: \(direction.rawValue))"
        case let .stall(afterBytes, direction): return "stall(afterBytes: \(afterBytes), direction: \(direction.rawValue))"
        case .refuse: return "refuse"
        }
    }
}

/// The faults waiting for future connections.
///
/// A fault is attached to a connection when the proxy accepts it, and stays with that
/// connection; injecting or clearing faults later never changes open connections (to
/// cut open connections, switch to ``NetworkProfile/offline``). A fault injected with a
/// count applies to that many next accepted connections and is then used up; without a
/// count it applies to every connection until ``ShapingProxy/clearFaults()``. Connections
/// refused because the profile is offline do not use up a count.
struct FaultSchedule: Sendable {
    private struct Entry: Sendable {
        var fault: ProxyFault
        var remaining: Int?
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    mutating func add(_ fault: ProxyFault, connections: Int?) {
        precondition(connections.map { $0 > 0 } ?? true, "connections must be > 0 or nil")
        entries.append(Entry(fault: fault, remaining: connections))
    }

    mutating func clear() {
        entries.removeAll()
    }

    /// The faults for the connection being accepted now, using up one-shot counts.
    mutating func take() -> [ProxyFault] {
        let faults = entries.map(\.fault)
        for index in entries.indices {
            entries[index].remaining? -= 1
        }
        entries.removeAll { $0.remaining == 0 }
        return faults
    }
}
