/// The network facts of one run that metrics, audits and the timeline share: the proxy's
/// chunks, the app's requests, and the device radio's model run over them.
public struct NetworkAnalysis: Sendable {
    /// The harness's network record; nil when no proxy ran (an older record).
    public let network: NetworkRecord?
    /// The device radio whose model prices the trace.
    public let radioProfile: RadioProfile
    /// Every chunk the proxy moved, seconds since exec.
    public let chunks: [TrafficChunk]
    /// The requests FrugalKit's client reported, in the order they ended.
    public let requests: [NetworkRequestRecord]
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

    /// Whether any byte went through the proxy.
    public var hasTraffic: Bool { !chunks.isEmpty }
}
