/// Runs a `RadioProfile`'s state machine over a trace and accounts time and energy.
///
/// One machine serves LTE, 3G and Wi-Fi; the profile's numbers decide which
/// stages exist. Sequencing follows ARO's `RrcStateRangeFactoryImpl`:
///
/// - Chunks are grouped into `ActiveRun`s (silences up to `activeHoldSeconds`
///   stay active: LTE continuous reception, 3G DCH, Wi-Fi active).
/// - A promotion ends at the chunk that needed it: the proxy timestamps bytes
///   when they move, so the radio must already be up then. If the radio only
///   reached idle (or the window only began) less than a promotion earlier, the
///   promotion is cut short there, as ARO does.
/// - After a run comes the tail. A run that starts within the tail resets it
///   with no promotion; 3G then has FACH, where a new run pays the shorter
///   FACH→DCH promotion; after that the radio is idle and pays a full promotion.
/// - States are clipped to the window's end; chunks outside the window are ignored.
public struct RadioModel: Sendable {
    /// The constants the model runs on.
    public let profile: RadioProfile

    /// Creates a model for `profile`.
    public init(profile: RadioProfile) {
        self.profile = profile
    }

    /// Accounts radio time and energy for `chunks` within `window`.
    public func report(for chunks: [TrafficChunk], window: ObservationWindow) -> RadioReport {
        report(forRuns: activeRuns(in: chunks, window: window), window: window)
    }

    /// The active runs this model sees in `chunks` within `window`.
    public func activeRuns(in chunks: [TrafficChunk], window: ObservationWindow) -> [ActiveRun] {
        ActiveRun.group(chunks.filter { window.contains($0.time) }, holdSeconds: profile.activeHoldSeconds)
    }

    /// Accounts radio time and energy for already-grouped runs, which must be in
    /// time order, not overlap, and lie inside `window`.
    public func report(forRuns runs: [ActiveRun], window: ObservationWindow) -> RadioReport {
        let names = RRCStateNames(profile.technology)
        var lane = RadioTimeline(window: window)
        var promotions = 0
        var previous: ActiveRun?

        func promoteFromIdle(before start: Double) {
            lane.hold(.idle, names.idle, until: start - profile.promotionSeconds, watts: profile.idleAverageWatts)
            lane.hold(.promotion, names.promotion, until: start, watts: profile.promotionWatts)
            promotions += 1
        }

        for run in runs {
            if let previous {
                let tailEnd = previous.end + profile.tailSeconds
                let fachEnd = tailEnd + profile.fachSeconds
                if run.start <= tailEnd {
                    lane.hold(.tail, names.tail, until: run.start, watts: profile.tailWatts)
                } else if run.start <= fachEnd {
                    lane.hold(.tail, names.tail, until: tailEnd, watts: profile.tailWatts)
                    lane.hold(.tail, names.fach, until: run.start - profile.fachPromotionSeconds, watts: profile.fachWatts)
                    lane.hold(.promotion, names.fachPromotion, until: run.start, watts: profile.fachPromotionWatts)
                    promotions += 1
                } else {
                    lane.hold(.tail, names.tail, until: tailEnd, watts: profile.tailWatts)
                    lane.hold(.tail, names.fach, until: fachEnd, watts: profile.fachWatts)
                    promoteFromIdle(before: run.start)
                }
            } else {
                promoteFromIdle(before: run.start)
            }
            lane.active(run, names.active, profile: profile)
            previous = run
        }
        if let previous {
            let tailEnd = previous.end + profile.tailSeconds
            lane.hold(.tail, names.tail, until: tailEnd, watts: profile.tailWatts)
            lane.hold(.tail, names.fach, until: tailEnd + profile.fachSeconds, watts: profile.fachWatts)
        }
        lane.hold(.idle, names.idle, until: window.end, watts: profile.idleAverageWatts)

        return RadioReport(
            profileName: profile.name,
            technology: profile.technology,
            window: window,
            timeline: lane.intervals,
            promotions: promotions
        )
    }
}

extension RadioProfile {
    /// A model running this profile.
    public var model: RadioModel { RadioModel(profile: self) }
}
