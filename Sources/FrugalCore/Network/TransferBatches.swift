/// One request's time on the wire, seconds since exec.
public struct TransferSpan: Codable, Sendable, Equatable {
    public var start: Double
    public var end: Double
    /// `METHOD target`.
    public var label: String
    /// The label of the earlier request whose answer named this one's path
    /// (``WireRequest/namedBy``), when the origin saw one.
    public var namedBy: String? = nil
    public init(start: Double, end: Double, label: String, namedBy: String? = nil) {
        self.start = start
        self.end = end
        self.label = label
        self.namedBy = namedBy
    }
    public var duration: Double { max(0, end - start) }
}

/// Transfers close enough together to be one batch, set against the same batch issued at once:
/// the counterfactual of `network.enqueue-together`.
public struct TransferBatch: Codable, Sendable, Equatable {
    public var transfers: [TransferSpan]
    /// Bytes the proxy moved each way while the batch ran.
    public var uplinkBytes: Int
    public var downlinkBytes: Int
    /// From the first transfer's start to the last one's end: the radio stays in continuous
    /// reception over that stretch, whatever the order.
    public var seconds: Double
    /// How long the batch would have taken issued at once: its longest transfer, its bytes at
    /// the link's rate each way (transfers issued together share the link), or its transfers
    /// packed onto the client's connections, whichever is longest.
    public var issuedAtOnceSeconds: Double

    public var start: Double { transfers.map(\.start).min() ?? 0 }
    public var end: Double { transfers.map(\.end).max() ?? 0 }
}

extension TransferBatch {
    /// Groups `transfers` into batches: a transfer starting within `gapSeconds` of the end of
    /// the batch so far joins it (ARO's 1.5 s burst silence), so a chain of one-after-another
    /// transfers is one batch. `conditions` gives the link in force at a time (rates in bit/s,
    /// nil = unlimited); `connectionLimit` is how many transfers the client runs at once (nil =
    /// no limit). An input step (`prompts`, seconds since exec) after the batch's last start and
    /// before a transfer's start begins a new batch: what the user asked for separately (a
    /// download per tap) is not one batch the app could have enqueued together. Only batches of
    /// two or more transfers are returned.
    public static func group(_ transfers: [TransferSpan], chunks: [TrafficChunk], gapSeconds: Double = BurstCriteria.aro.silenceSeconds,
                             connectionLimit: Int? = nil, prompts: [Double] = [], conditions: (Double) -> NetworkProfile?) -> [TransferBatch] {
        var groups: [[TransferSpan]] = []
        var groupEnd = -Double.infinity
        for transfer in transfers.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
            let lastStart = groups.last?.last?.start ?? -Double.infinity
            let prompted = prompts.contains { $0 > lastStart && $0 <= transfer.start }
            if !groups.isEmpty, transfer.start <= groupEnd + gapSeconds, !prompted {
                groups[groups.count - 1].append(transfer)
                groupEnd = max(groupEnd, transfer.end)
            } else {
                groups.append([transfer])
                groupEnd = transfer.end
            }
        }
        return groups.filter { $0.count >= 2 }.map { group in
            let start = group.map(\.start).min()!, end = group.map(\.end).max()!
            var up = 0, down = 0
            for chunk in chunks where chunk.time >= start && chunk.time <= end {
                if chunk.direction == .uplink { up += chunk.bytes } else { down += chunk.bytes }
            }
            let link = conditions(start)
            func wire(_ bytes: Int, _ rate: Int?) -> Double { rate.map { Double(bytes) * 8 / Double($0) } ?? 0 }
            let packed = connectionLimit.map { group.reduce(0) { $0 + $1.duration } / Double(max(1, $0)) } ?? 0
            let once = max(group.map(\.duration).max() ?? 0, wire(up, link?.uplinkBitsPerSecond), wire(down, link?.downlinkBitsPerSecond), packed)
            return TransferBatch(transfers: group, uplinkBytes: up, downlinkBytes: down, seconds: end - start, issuedAtOnceSeconds: once)
        }
    }
}
