/// What the run's origin served and what it could not: the requests the app made that nothing
/// matched (the findings of a fixture or HAR run), and connections that went past the proxy.
public struct RunServerSummary: Codable, Sendable, Equatable {
    /// `synthetic routes`, `HAR api.har`, `fixtures Fixtures/`, `recording http://... into x.har`.
    public var serving: String
    /// Requests the origin answered, by every client.
    public var requests: Int
    /// `GET api.example.test/api/v2/x: no entry of api.har is GET /api/v2/x` for each unmatched request (first 50).
    public var unmatched: [String]
    /// Remote addresses the run's processes connected to past the proxy: traffic not seen.
    public var unseen: [String]

    public init(serving: String, requests: Int, unmatched: [String], unseen: [String]) {
        self.serving = serving
        self.requests = requests
        self.unmatched = unmatched
        self.unseen = unseen
    }

    /// The summary of `network`, nil for a record from before the origin logged requests.
    public init?(_ network: NetworkRecord?) {
        guard let network, let requests = network.requests else { return nil }
        self.init(serving: network.serving ?? "synthetic routes", requests: requests.count,
                  unmatched: network.unmatchedRequests.prefix(50).map { $0.detail ?? "\($0.label): not matched" },
                  unseen: Array(Set((network.unseenConnections ?? []).map(\.remoteAddress))).sorted())
    }
}
