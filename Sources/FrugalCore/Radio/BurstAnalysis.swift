/// ARO-style burst analysis of a trace: bursts, periodic transfers, and the
/// promotion rate used by the `network.no-server-polling` audit.
///
/// Bursts are cut on silence across all connections and both directions.
/// Periodic groups are looked for among consecutive bursts of whatever trace
/// is passed in; to find a poller hidden among other traffic, pass only that
/// connection's chunks.
public struct BurstAnalysis: Codable, Sendable, Equatable {
    /// The thresholds used.
    public let criteria: BurstCriteria
    /// Bursts in time order.
    public let bursts: [Burst]
    /// Periodic groups in time order; no burst belongs to two groups.
    public let periodicGroups: [PeriodicGroup]

    /// Analyses `chunks` (any order) with `criteria`.
    public init(chunks: [TrafficChunk], criteria: BurstCriteria = .aro) {
        self.criteria = criteria
        self.bursts = Self.bursts(in: chunks, silenceSeconds: criteria.silenceSeconds)
        self.periodicGroups = Self.periodicGroups(in: bursts, criteria: criteria)
    }

    /// Whether any periodic group was found.
    public var hasPeriodicTransfers: Bool { !periodicGroups.isEmpty }

    /// Splits `chunks` into bursts wherever the silence between consecutive chunks
    /// is strictly longer than `silenceSeconds`.
    ///
    /// Strictly longer, as in ARO's `groupIntoBursts` (`gap > BURST_TH`): chunks
    /// exactly 1.5 s apart stay in one burst. ARO's extra merging of bursts split
    /// only by a promotion delay does not apply, since proxy timestamps carry no
    /// promotion delay.
    public static func bursts(in chunks: [TrafficChunk], silenceSeconds: Double) -> [Burst] {
        var bursts: [Burst] = []
        var connections: Set<Int> = []
        for chunk in chunks.sortedByTime() {
            let up = chunk.direction == .uplink ? chunk.bytes : 0
            let down = chunk.direction == .downlink ? chunk.bytes : 0
            if var last = bursts.last, chunk.time - last.end <= silenceSeconds {
                connections.insert(chunk.connection)
                last.end = chunk.time
                last.uplinkBytes += up
                last.downlinkBytes += down
                last.chunkCount += 1
                last.connections = connections.sorted()
                bursts[bursts.count - 1] = last
            } else {
                connections = [chunk.connection]
                bursts.append(Burst(
                    start: chunk.time, end: chunk.time,
                    uplinkBytes: up, downlinkBytes: down,
                    chunkCount: 1, connections: [chunk.connection]
                ))
            }
        }
        return bursts
    }

    /// Finds runs of at least `periodMinBursts` consecutive bursts whose
    /// start-to-start gaps each lie within `periodCycleToleranceSeconds` of their
    /// median, with that median (the cycle) longer than `periodMinCycleSeconds`.
    ///
    /// The search is greedy: from each starting burst it takes the longest
    /// regular run, then continues after it.
    public static func periodicGroups(in bursts: [Burst], criteria: BurstCriteria) -> [PeriodicGroup] {
        // Two bursts give one gap, which is trivially regular; a cycle needs at least that.
        let minBursts = max(criteria.periodMinBursts, 2)
        let tolerance = criteria.periodCycleToleranceSeconds
        var groups: [PeriodicGroup] = []
        var first = 0
        while first + minBursts <= bursts.count {
            var last = first + minBursts - 1
            guard isRegular(bursts[first...last], tolerance: tolerance) else {
                first += 1
                continue
            }
            while last + 1 < bursts.count, isRegular(bursts[first...(last + 1)], tolerance: tolerance) {
                last += 1
            }
            let cycle = SampleSummary.median(startGaps(bursts[first...last])) ?? 0
            if cycle > criteria.periodMinCycleSeconds {
                groups.append(PeriodicGroup(bursts: Array(bursts[first...last]), cycleSeconds: cycle))
                first = last + 1
            } else {
                // The run's last burst may open a slower cycle, so start again from it.
                first = last
            }
        }
        return groups
    }

    /// Promotions per minute of `window` when `profile`'s model runs over `chunks`.
    public static func promotionsPerMinute(
        of chunks: [TrafficChunk],
        profile: RadioProfile,
        window: ObservationWindow
    ) -> Double {
        profile.model.report(for: chunks, window: window).promotionsPerMinute
    }

    private static func startGaps(_ bursts: ArraySlice<Burst>) -> [Double] {
        zip(bursts.dropFirst(), bursts).map { $0.start - $1.start }
    }

    private static func isRegular(_ bursts: ArraySlice<Burst>, tolerance: Double) -> Bool {
        let gaps = startGaps(bursts)
        let center = SampleSummary.median(gaps) ?? 0
        return gaps.allSatisfy { abs($0 - center) <= tolerance }
    }
}
