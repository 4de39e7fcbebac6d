/// The timeline's radio lane: the device radio's states over the run (promotion, active, tail,
/// idle) as its model sees the proxy's trace, and the app's requests above them.
public struct RadioLane: Codable, Sendable, Equatable {
    /// The radio profile's name (`LTE (Huang et al. 2012 / ARO)`).
    public var profile: String
    /// The model's metric source (`model:lte-huang2012`).
    public var model: String
    /// The states, gap-free over the observation window (which may run past the app's exit, to
    /// the end of the last tail).
    public var intervals: [RadioInterval]
    /// The requests FrugalKit's client made.
    public var transfers: [TransferMark]

    public init(profile: String, model: String, intervals: [RadioInterval], transfers: [TransferMark]) {
        self.profile = profile
        self.model = model
        self.intervals = intervals
        self.transfers = transfers
    }
}

/// One request on the radio lane.
public struct TransferMark: Codable, Sendable, Equatable {
    public var start: Double
    public var end: Double
    /// `METHOD target`.
    public var label: String
    public var outcome: NetworkRequestRecord.Outcome
    public var bytesSent: Int
    public var bytesReceived: Int
    /// The error, for a failed request.
    public var error: String?
}

extension RadioLane {
    /// The lane of a run, or nil when no shaping proxy ran.
    public init?(_ analysis: RunAnalysis) {
        let network = NetworkAnalysis(analysis)
        guard let radio = network.radio else { return nil }
        var transfers = network.requests.map {
            TransferMark(start: analysis.runTime($0.start), end: analysis.runTime($0.end), label: "\($0.method) \($0.target)",
                         outcome: $0.outcome, bytesSent: $0.bytesSent, bytesReceived: $0.bytesReceived, error: $0.error)
        }
        // Other clients' requests (URLSession, curl), from the origin's log.
        for attempt in network.attempts(analysis) where !attempt.fromClient {
            guard let wire = attempt.wire else { continue }
            transfers.append(TransferMark(start: attempt.span.start, end: attempt.span.end, label: "\(wire.label) → \(wire.status)",
                                          outcome: wire.completed ? .completed : .failed, bytesSent: wire.requestBodyBytes,
                                          bytesReceived: wire.responseBodyBytes, error: wire.source == .unmatched ? wire.detail : nil))
        }
        self.init(profile: network.radioProfile.name, model: network.modelSource, intervals: radio.timeline, transfers: transfers)
    }
}
