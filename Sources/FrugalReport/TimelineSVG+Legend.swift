import FrugalCore

extension TimelineSVG {
    /// The one legend of a timeline, in HTML beside it: a key for each lane the run has, and
    /// within a lane only the kinds it drew (a run with no app states shows no state colours).
    public static func legend(_ timeline: Timeline) -> String {
        func key(_ cssClass: String, _ text: String) -> String { "<i class=\"k \(cssClass)\"></i>\(text)" }
        var groups: [String] = []
        for lane in lanes(timeline) {
            var keys: [String] = []
            switch lane {
            case .state:
                let present = Set(timeline.states.map(\.state))
                keys = AppState.allCases.filter(present.contains).map { key("s-\(stateClass($0))", $0.rawValue) }
            case .steps:
                keys = [key("st", "step")]
                let life = Set(timeline.steps.map(\.step)).intersection(lifeSteps).subtracting(["launch"])
                if !life.isEmpty { keys.append(key("life", life.sorted().joined(separator: ", "))) }
                if timeline.steps.contains(where: { $0.problem != nil }) { keys.append(key("st-bad", "step with a problem")) }
            case .main:
                // One pass, and no copy of a million durations (the page renders beside report.json).
                // As `Sequence.max()` picks (a NaN first stays), so a hand-written report's page is unchanged.
                var longest: Double?, anyLong = false
                for handler in timeline.handlers {
                    if let current = longest { if current < handler.durationMs { longest = handler.durationMs } } else { longest = handler.durationMs }
                    if handler.durationMs > 50 && handler.durationMs < Thresholds.hangMilliseconds { anyLong = true }
                }
                keys = [key("h", "handler")]
                if anyLong { keys.append(key("h-long", "&gt; 50 ms")) }
                if (longest ?? 0) >= Thresholds.hangMilliseconds || !(timeline.hangs ?? []).isEmpty { keys.append(key("h-hang", "hang (≥ \(Int(Thresholds.hangMilliseconds)) ms)")) }
                if !(timeline.marks ?? []).isEmpty { keys.append(key("amk", "mark (app.mark)")) }
            case .wakeups:
                keys = [key("wk", "wakeups/s")]
            case .disk:
                let present = Set((timeline.disk ?? []).map(\.operation))
                keys = [FileWrite.Operation.replace, .write, .append, .fsync, .delete].filter(present.contains).map { key(diskClass($0), $0.rawValue) }
                if (timeline.disk ?? []).contains(where: \.synced) { keys.append("dark cap = fsync") }
            case .radio:
                let present = Set((timeline.radio?.intervals ?? []).map(\.state))
                keys = [RadioState.promotion, .active, .tail, .idle].filter(present.contains).map { key(radioClass($0), "radio \($0.rawValue)") }
                if timeline.radio?.transfers.isEmpty == false { keys.append(key("tr", "request")) }
                if timeline.radio?.transfers.contains(where: { $0.outcome != .completed }) == true { keys.append(key("tr-failed", "failed request")) }
            case .memory:
                let samples = timeline.memory ?? []
                if samples.contains(where: { $0.anonymousBytes > 0 }) { keys.append(key("m-anon", "anonymous")) }
                if samples.contains(where: { $0.fileBytes > 0 }) { keys.append(key("m-file", "file-backed")) }
                if samples.contains(where: { $0.lazyFreeBytes > 0 }) { keys.append(key("m-lazy", "lazy-free")) }
                if timeline.memoryMarks?.contains(where: { $0.kind != "kernel" }) == true { keys.append(key("mk-warning", "warning")) }
                if timeline.memoryMarks?.contains(where: { $0.kind == "kernel" }) == true { keys.append(key("mk-kernel", "kernel pressure")) }
            }
            groups.append("<span><b>\(lane.rawValue)</b> " + keys.joined(separator: " ") + "</span>")
        }
        return "<p class=\"legend tl-legend\">" + groups.joined(separator: " ") + "</p>"
    }
}
