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
        let chunks = record.network?.trace.chunks ?? []
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
            if let index = wireRequests.indices.first(where: { index in
                let wire = wireRequests[index]
                return !claimed.contains(index) && wire.method == request.method && wire.target == request.target
                    && wire.start >= start - 0.05 && wire.start <= end + 0.05
            }) {
                claimed.insert(index)
            }
            result.append(Attempt(operation: request.operation,
                                  span: TransferSpan(start: start, end: end, label: "\(request.method) \(request.target)"),
                                  completed: request.outcome == .completed, connectionLimit: request.connectionLimit, fromClient: true))
        }
        for (index, wire) in wireRequests.enumerated() where !claimed.contains(index) {
            let end = wire.end ?? wire.firstByte ?? wire.start
            result.append(Attempt(operation: "\(wire.method) \(wire.host ?? "")\(wire.target)",
                                  span: TransferSpan(start: wire.start, end: max(end, wire.start), label: wire.label),
                                  completed: wire.completed, connectionLimit: nil, fromClient: false, wire: wire))
        }
        return result.sorted { $0.span.start < $1.span.start }
    }

    /// Whether any byte went through the proxy.
    public var hasTraffic: Bool { !chunks.isEmpty }
}
