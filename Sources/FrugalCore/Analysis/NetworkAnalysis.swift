/// The network facts of one run that metrics, audits and the timeline share: the proxy's
/// chunks, the app's requests, and the device radio's model run over them.
public struct NetworkAnalysis: Sendable {
    /// The harness's network record; nil when no proxy ran (an older record).
    public let network: NetworkRecord?
    /// The device radio whose model prices the trace.
    public let radioProfile: RadioProfile
    /// Every chunk the proxy moved, seconds since exec.
    public let chunks: [TrafficChunk]
    /// The requests FrugalKit's client reported, in the order they ended: detail (operations,
    /// retries, failures before a request reached the server) over ``wireRequests``.
    public let requests: [NetworkRequestRecord]
    /// Every request the origin read, whatever client sent it (empty in older records).
    public let wireRequests: [WireRequest]
    /// From exec to the end of the run or of the last radio tail, whichever is later: the radio
    /// stays up after the last transfer even if the app has exited, and the app caused that.
    public let window: ObservationWindow
    /// The radio model over the trace; nil when no proxy ran.
    public let radio: RadioReport?

    public init(_ analysis: RunAnalysis) {
        let record = analysis.record
        let profile = RadioProfile.builtIn(record.network?.radio ?? .lte)
        let chunks = Self.receivable(record.network?.trace.chunks ?? [], runSeconds: analysis.wallSeconds)
        network = record.network
        wireRequests = record.network?.requests ?? []
        radioProfile = profile
        self.chunks = chunks
        requests = record.events.compactMap { event in
            if case .networkRequest(let request) = event.body { return request }
            return nil
        }
        let lastChunk = chunks.map(\.time).max()
        let tailEnd = lastChunk.map { $0 + profile.tailSeconds + profile.fachSeconds } ?? 0
        let window = ObservationWindow(start: 0, end: max(analysis.wallSeconds, tailEnd))
        self.window = window
        radio = record.network == nil ? nil : profile.model.report(for: chunks, window: window)
    }

    /// The chunks the app sent or could receive: every uplink chunk (what the app wrote before it
    /// ended, however late the link let it out), and the downlink chunks the link released while
    /// a process of the app was there to receive them (`runSeconds`, the run's end: its last
    /// process's exit). What the server sends after that is no transfer of the app's. Seen: the
    /// origin's TLS close_notify (24 B) for a connection the app's exit had closed, released
    /// 62 ms after the exit on a loaded machine and not at all on a quiet one, as the proxy
    /// learnt the client's socket was gone before or after it came; charged, it restarted the
    /// radio's tail 6 s after the app's last fetch, and a good app read 1.65× one burst's
    /// energy instead of 1.15×. The proxy drops bytes for a side it knows has closed
    /// (`ProxyConnection.inactive`); this is the same rule, decided by the exit the harness
    /// saw rather than by which of the two the proxy saw first.
    static func receivable(_ chunks: [TrafficChunk], runSeconds: Double) -> [TrafficChunk] {
        guard runSeconds > 0 else { return chunks }
        return chunks.filter { $0.direction == .uplink || $0.time <= runSeconds }
    }

    /// The metric source of the radio model (`model:lte-huang2012`).
    public var modelSource: String { RadioProfile.modelSource(radioProfile.technology) }

    /// One attempt at a request, from whichever source knows it best.
    public struct Attempt: Sendable, Equatable {
        /// What the app was doing: `NetworkClient`'s operation, or `METHOD host target` for other clients.
        public var operation: String
        public var span: TransferSpan
        /// A whole response arrived (any status).
        public var completed: Bool
        public var connectionLimit: Int?
        /// Whether it came from FrugalKit's client (else from the wire only).
        public var fromClient: Bool
        /// The wire's record, for an attempt no NetworkClient event accounts for.
        public var wire: WireRequest?
    }

    /// Every request attempt of the run: each of `NetworkClient`'s (its times include the
    /// connection's setup), then each wire request no `NetworkClient` attempt accounts for (another
    /// client's: `URLSession`, curl), with its times on the proxy's link. An attempt of
    /// `NetworkClient` accounts for the first unclaimed wire request with its method and target that
    /// the origin read between the attempt's start and end (50 ms of slack for clock reads).
    public func attempts(_ analysis: RunAnalysis) -> [Attempt] {
        var claimed = Set<Int>()
        var result: [Attempt] = []
        for request in requests.sorted(by: { $0.start < $1.start }) {
            let start = analysis.runTime(request.start), end = analysis.runTime(request.end)
            let matched = wireRequests.indices.first(where: { index in
                let wire = wireRequests[index]
                return !claimed.contains(index) && wire.method == request.method && wire.target == request.target
                    && wire.start >= start - 0.05 && wire.start <= end + 0.05
            })
            if let matched { claimed.insert(matched) }
            result.append(Attempt(operation: request.operation,
                                  span: TransferSpan(start: start, end: end, label: "\(request.method) \(request.target)",
                                                     namedBy: matched.flatMap { wireRequests[$0].namedBy }),
                                  completed: request.outcome == .completed, connectionLimit: request.connectionLimit, fromClient: true))
        }
        for (index, wire) in wireRequests.enumerated() where !claimed.contains(index) {
            let end = wire.end ?? wire.firstByte ?? wire.start
            result.append(Attempt(operation: "\(wire.method) \(wire.host ?? "")\(wire.target)",
                                  span: TransferSpan(start: wire.start, end: max(end, wire.start), label: wire.label, namedBy: wire.namedBy),
                                  completed: wire.completed, connectionLimit: nil, fromClient: false, wire: wire))
        }
        return result.sorted { $0.span.start < $1.span.start }
    }

    /// Whether any byte went through the proxy.
    public var hasTraffic: Bool { !chunks.isEmpty }
}
