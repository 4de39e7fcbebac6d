/// How the transfers of one batch were issued: together, or each only after the one before had
/// finished. `network.enqueue-together`'s evidence, read from the wire: the guide asks to
/// "enqueue those items together rather than waiting for one to finish before starting the next
/// one", and a transfer that starts only once every earlier transfer of its batch has ended is
/// one the app (or its client) held back until the one before finished.
public struct IssueOrder: Sendable, Equatable {
    /// The batch's transfers in the order they started.
    public var transfers: [TransferSpan]
    /// The transfers of each wave: a wave begins with a transfer that started only after every
    /// earlier one had ended; the transfers in flight beside it join it.
    public var waveSizes: [Int]
    /// The transfers issued only after the one before had finished, by the app: each starts a wave
    /// of its own (alone on the wire) after the first wave, when the wave before it did not fill
    /// the client's known connections. A wave of several transfers, or one after a wave that
    /// filled every connection, is the client working through what the app enqueued together.
    public var waited: [TransferSpan]
    /// Transfers that started alone after the one before had finished, but whose path that one's
    /// answer named (``TransferSpan/namedBy``): a link the app followed (a config naming its feed,
    /// a feed naming the story on the first screen), which it could not have enqueued before the
    /// answer came. Not held back, so not in `waited`.
    public var followedLinks: [TransferSpan] = []

    /// The waves of `transfers` (any order), given how many transfers the client runs at once
    /// (`connectionLimit`, nil when unknown: every lone wave after the first then counts).
    public init(_ transfers: [TransferSpan], connectionLimit: Int? = nil) {
        let ordered = transfers.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var waves: [[TransferSpan]] = []
        var latestEnd = -Double.infinity
        for transfer in ordered {
            // Starting at the very instant the last one ended is starting after it: the proxy
            // releases the next request's first byte after the previous response's last.
            if transfer.start >= latestEnd || waves.isEmpty { waves.append([transfer]) } else { waves[waves.count - 1].append(transfer) }
            latestEnd = max(latestEnd, transfer.end)
        }
        var waited: [TransferSpan] = [], followed: [TransferSpan] = []
        for index in waves.indices.dropFirst() where waves[index].count == 1 {
            if let limit = connectionLimit, waves[index - 1].count >= limit { continue }
            let transfer = waves[index][0]
            if let namer = transfer.namedBy, waves[index - 1].contains(where: { $0.label == namer }) {
                followed.append(transfer)
            } else {
                waited.append(transfer)
            }
        }
        followedLinks = followed
        self.transfers = ordered
        waveSizes = waves.map(\.count)
        self.waited = waited
    }
}
