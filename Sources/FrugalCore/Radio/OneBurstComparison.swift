/// A trace set against the same bytes sent as one burst: the counterfactual
/// behind the `network.transmit-in-bursts` and `network.enqueue-together` audits.
///
/// The burst starts at the trace's first chunk and is one active run as long as
/// all of the trace's active runs put together, carrying all of its bytes. Its
/// throughput (bytes over active seconds) is therefore the trace's, and so is
/// its active energy; what changes is that it pays one promotion and one tail.
///
/// With 3G's 5 s DCH hold, silences under 5 s are already active time in the
/// trace and stay active time in the burst, so under 3G the comparison only
/// credits the promotions, DCH tails and FACH time a burst would avoid.
public struct OneBurstComparison: Codable, Sendable, Equatable {
    /// The trace as it happened.
    public let trace: RadioReport
    /// The same bytes as one burst at the time of the trace's first chunk.
    public let oneBurst: RadioReport
    /// `trace.attributedJoules / oneBurst.attributedJoules`; 1 when neither used any energy.
    public let energyRatio: Double
    /// `trace.radioActiveSeconds / oneBurst.radioActiveSeconds`; 1 when neither had any.
    public let radioActiveSecondsRatio: Double

    /// Runs `profile`'s model over `chunks` and over their one-burst counterpart, both in `window`.
    public init(chunks: [TrafficChunk], profile: RadioProfile, window: ObservationWindow) {
        let model = profile.model
        let runs = model.activeRuns(in: chunks, window: window)
        trace = model.report(forRuns: runs, window: window)

        if let first = runs.first {
            let burst = ActiveRun(
                start: first.start,
                end: first.start + runs.reduce(0) { $0 + $1.duration },
                uplinkBytes: runs.reduce(0) { $0 + $1.uplinkBytes },
                downlinkBytes: runs.reduce(0) { $0 + $1.downlinkBytes },
                chunkCount: runs.reduce(0) { $0 + $1.chunkCount }
            )
            oneBurst = model.report(forRuns: [burst], window: window)
        } else {
            oneBurst = trace
        }
        energyRatio = Self.ratio(trace.attributedJoules, oneBurst.attributedJoules)
        radioActiveSecondsRatio = Self.ratio(trace.radioActiveSeconds, oneBurst.radioActiveSeconds)
    }

    /// Joules the trace spent beyond the one-burst counterpart.
    public var excessJoules: Double { trace.attributedJoules - oneBurst.attributedJoules }

    /// Radio-up seconds the trace spent beyond the one-burst counterpart.
    public var excessRadioActiveSeconds: Double { trace.radioActiveSeconds - oneBurst.radioActiveSeconds }

    private static func ratio(_ numerator: Double, _ denominator: Double) -> Double {
        denominator > 0 ? numerator / denominator : 1
    }
}
