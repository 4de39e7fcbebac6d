/// The memory an app's HTTP client keeps for the connections it holds open: the platform's, not
/// the app's to free on a warning or in the background.
///
/// `URLSession` on Linux goes through libcurl, which keeps each connection alive after its
/// transfer (its connection cache) with the connection's TLS state (OpenSSL 3.0's context and
/// buffers). No API of the app's releases it: `URLSession.shared` cannot be invalidated, and a
/// memory warning is not passed on to libcurl. Measured with an app that only fetched N small
/// responses at once over HTTPS at launch and then took a warning (libcurl 7.88.1, OpenSSL
/// 3.0, 2026-11-28): its footprint rose above launch by 1.68 MiB with one connection, 3.49 MiB
/// with three and 5.99 MiB with six (0.86–0.91 MiB for each one more), by 1.72 MiB for six
/// fetched one after another on one connection, and by 0.66 MiB for six at once over plain
/// HTTP. Under the guide's advice to enqueue transfers together ("enqueue those items
/// together rather than waiting for one to finish before starting the next one"), six HTTPS
/// requests left 6 MiB the app could not free, and `memory.respond-to-warnings` failed an app
/// that held nothing else. So the connections open through the run's proxy when the memory is
/// judged are allowed for, per connection, and named in the evidence.
extension MemoryAnalysis {
    /// What one kept-alive HTTPS connection holds in the client (measured 0.86–0.91 MiB, above).
    public static let tlsConnectionStateBytes = 1_048_576
    /// What one kept-alive plain-HTTP connection holds in the client: its buffers (six cost
    /// 0.66 MiB with the client's first use; Frugal's bound, above what was measured).
    public static let plainConnectionStateBytes = 131_072

    /// The connections the run's proxy had open at a moment, and what their client state is allowed.
    public struct OpenConnections: Sendable, Equatable {
        /// Connections open through the proxy (accepted, not yet closed, reset or refused).
        public var open: Int
        /// Of those, the ones that carried TLS: at most the handshakes completed by then
        /// (the proxy sees bytes, the origin the handshakes, so one is bounded by the other).
        public var tls: Int
        /// The client state allowed for them.
        public var bytes: Int { tls * MemoryAnalysis.tlsConnectionStateBytes + (open - tls) * MemoryAnalysis.plainConnectionStateBytes }

        public init(open: Int, tls: Int) {
            self.open = open
            self.tls = min(tls, open)
        }

        /// `6 connections kept open (6 HTTPS)`.
        public var summary: String {
            let kinds = tls == open ? "\(tls) HTTPS" : tls == 0 ? "plain HTTP" : "\(tls) HTTPS, \(open - tls) plain HTTP"
            return "\(open) connection\(open == 1 ? "" : "s") kept open (\(kinds))"
        }
    }

    /// The connections open through the run's proxy at `time` (nanoseconds on the run's clock);
    /// nil when the run had no proxy or none was open.
    public static func openConnections(at time: UInt64, in record: RunRecord) -> OpenConnections? {
        guard let network = record.network, time >= record.startTime else { return nil }
        let seconds = Double(time - record.startTime) / 1e9
        var opened: Set<Int> = []
        var ended: Set<Int> = []
        for event in network.trace.events where event.time <= seconds {
            switch event.kind {
            case .open: opened.insert(event.connection)
            case .close, .reset, .refused: ended.insert(event.connection)
            case .stall: break
            }
        }
        let open = opened.subtracting(ended).count
        guard open > 0 else { return nil }
        let handshakes = network.tls?.handshakes.filter { $0.outcome == .completed && $0.time <= seconds }.count ?? 0
        return OpenConnections(open: open, tls: handshakes)
    }
}
