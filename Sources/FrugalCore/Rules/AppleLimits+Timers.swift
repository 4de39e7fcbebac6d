import Foundation

extension AppleLimits {
    static let energyGuideTimers = "Apple's Energy Efficiency Guide for iOS Apps, \"Minimize Timer Use\" (https://developer.apple.com/library/archive/documentation/Performance/Conceptual/EnergyGuide-iOS/MinimizeTimerUse.html): set a repeating timer's tolerance to at least 10 percent of its interval, and prefer events to timers that poll"

    public static let timerTolerance = AppleLimit(
        id: "apple.timer-tolerance", title: "Timer tolerance (at least 10% of the interval)",
        limit: "a repeating timer's tolerance is at least 10% of its interval, so the system can coalesce its wakeups",
        threshold: 0.1, unit: "tolerance ÷ interval", windowSeconds: 0,
        action: "none enforced: the guide's request; a timer without tolerance wakes the CPU on its own every time",
        measures: "the RunLoopTimers the app scheduled (FrugalKit marks each with its interval, tolerance and creation site); a Foundation Timer or DispatchSourceTimer is not seen by the runtime",
        source: energyGuideTimers)

    public static let timerNoEffect = AppleLimit(
        id: "apple.timer-no-effect", title: "Sub-second timers that do nothing observable",
        limit: "a repeating timer under 1 s whose firings write nothing, send nothing and mark nothing is polling",
        threshold: 1, unit: "s", windowSeconds: 0,
        action: "none enforced: the guide's request; such a timer only costs wakeups",
        measures: "each sub-second repeating RunLoopTimer's firings (its `timer:<name>` handlers) against the writes, requests and app marks during them, from the run's timeline",
        source: energyGuideTimers)

    /// The RunLoopTimers the run created, from its marks.
    static func timers(_ run: RunReport) -> [TimerCreation] {
        (run.timeline.marks ?? []).compactMap { mark in
            guard mark.name == TimerCreation.markName, let detail = mark.detail else { return nil }
            return TimerCreation(detail: detail)
        }
    }

    static func evaluateTimerTolerance(_ run: RunReport) -> AppleLimitResult {
        let limit = timerTolerance
        let repeating = timers(run).filter { $0.repeats && $0.interval > 0 }
        guard !repeating.isEmpty else {
            return AppleLimitResult(id: limit.id, status: .notApplicable,
                                    summary: "not applicable: no repeating RunLoopTimer was scheduled (Foundation Timers and dispatch timers are not seen)",
                                    measuredSource: "kit:marks", source: limit.source)
        }
        var seen = Set<String>()
        // 10% of 50 ms is 0.005000000000000001 in binary: a tolerance written as 5 ms meets it.
        let short = repeating.filter { $0.tolerance < limit.threshold * $0.interval * (1 - 1e-9) && seen.insert($0.name + "@" + $0.site).inserted }
        let worst = repeating.map { $0.tolerance / $0.interval }.min() ?? 0
        guard !short.isEmpty else {
            return AppleLimitResult(id: limit.id, status: .within, measured: worst, unit: limit.unit,
                                    summary: "within: every repeating RunLoopTimer has a tolerance of at least 10% of its interval",
                                    measuredSource: "kit:marks", source: limit.source)
        }
        let listed = short.map { "'\($0.name)' (\($0.site)) every \(HumanUnits.seconds($0.interval)) with \(HumanUnits.seconds($0.tolerance)) tolerance, under \(HumanUnits.seconds($0.interval * limit.threshold))" }
        return AppleLimitResult(id: limit.id, status: .exceeded, measured: worst, unit: limit.unit,
                                summary: "\(short.count) repeating timer\(short.count == 1 ? "" : "s") below 10% tolerance: " + listed.joined(separator: "; "),
                                measuredSource: "kit:marks", source: limit.source)
    }

    static func evaluateTimerNoEffect(_ run: RunReport) -> AppleLimitResult {
        let limit = timerNoEffect
        let fast = Dictionary(timers(run).filter { $0.repeats && $0.interval > 0 && $0.interval < limit.threshold }.map { ($0.name, $0) },
                              uniquingKeysWith: { first, _ in first })
        guard !fast.isEmpty else {
            return AppleLimitResult(id: limit.id, status: .notApplicable, summary: "not applicable: no repeating RunLoopTimer under 1 s was scheduled",
                                    measuredSource: "kit:marks", source: limit.source)
        }
        let timeline = run.timeline
        // What a handler may have done that anyone could see: a write, a request, a mark of its own.
        let effects = (timeline.disk ?? []).map(\.time) + (timeline.radio?.transfers ?? []).map(\.start)
            + (timeline.marks ?? []).filter { $0.name != TimerCreation.markName }.map(\.time)
        var idle: [(TimerCreation, Int)] = []
        for (name, timer) in fast.sorted(by: { $0.key < $1.key }) {
            let firings = timeline.handlers.filter { $0.name == "timer:" + name }
            guard firings.count >= 2 else { continue }
            let observable = firings.contains { firing in
                effects.contains { $0 >= firing.start - 0.001 && $0 <= firing.start + firing.durationMs / 1000 + 0.001 }
            }
            if !observable { idle.append((timer, firings.count)) }
        }
        guard !idle.isEmpty else {
            return AppleLimitResult(id: limit.id, status: .within, summary: "within: every sub-second repeating RunLoopTimer wrote, sent or marked something when it fired",
                                    measuredSource: "kit:handlers", source: limit.source)
        }
        let listed = idle.map { "'\($0.0.name)' (\($0.0.site)) every \(HumanUnits.seconds($0.0.interval)): \($0.1) firings, none wrote, sent or marked anything" }
        return AppleLimitResult(id: limit.id, status: .exceeded, measured: Double(idle.count), unit: "timers",
                                summary: "\(idle.count) sub-second timer\(idle.count == 1 ? "" : "s") that did nothing observable: " + listed.joined(separator: "; "),
                                measuredSource: "kit:handlers", source: limit.source)
    }
}
