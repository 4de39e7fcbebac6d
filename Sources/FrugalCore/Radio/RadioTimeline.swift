/// Builds a gap-free lane of `RadioInterval`s across an observation window.
///
/// The builder keeps a cursor: each state is laid from the cursor up to a
/// target time, clipped to the window's end. A target at or before the cursor
/// lays nothing, which is how a promotion gets cut short when the radio only
/// reached idle (or the window only began) less than a promotion before a chunk.
struct RadioTimeline {
    let window: ObservationWindow
    private(set) var intervals: [RadioInterval] = []
    private(set) var cursor: Double

    init(window: ObservationWindow) {
        self.window = window
        self.cursor = window.start
    }

    /// Lays `state` at constant `watts` from the cursor to `target` (clipped to the window).
    mutating func hold(_ state: RadioState, _ rrcState: String, until target: Double, watts: Double) {
        let end = min(target, window.end)
        guard end > cursor else { return }
        intervals.append(RadioInterval(
            state: state, start: cursor, end: end,
            joules: watts * (end - cursor), rrcState: rrcState
        ))
        cursor = end
    }

    /// Lays one active run, even a zero-length one, so its bytes and energy show on the lane.
    mutating func active(_ run: ActiveRun, _ rrcState: String, profile: RadioProfile) {
        let start = max(cursor, run.start)
        let end = min(max(run.end, start), window.end)
        intervals.append(RadioInterval(
            state: .active, start: start, end: end,
            joules: profile.activeJoules(
                seconds: end - start,
                uplinkBytes: run.uplinkBytes,
                downlinkBytes: run.downlinkBytes
            ),
            rrcState: rrcState,
            uplinkBytes: run.uplinkBytes,
            downlinkBytes: run.downlinkBytes
        ))
        cursor = end
    }
}
