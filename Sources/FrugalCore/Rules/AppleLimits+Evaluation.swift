import Foundation

/// Judging a run against Apple's limits, from what its report holds (the timeline's lanes and
/// the metrics), so `frugal report` can judge an old report the same way. Pure.
extension AppleLimits {
    /// Every limit of the pack on `run`.
    public static func evaluate(_ run: RunReport) -> [AppleLimitResult] {
        [evaluateWakeups(run), evaluateDiskWrites(run), evaluateHangs(run), evaluateBackgroundCPU(run),
         evaluateTimerTolerance(run), evaluateTimerNoEffect(run)]
    }

    /// An interval of a lane: its span and how much of something fell in it.
    struct Interval {
        var start: Double
        var end: Double
        var amount: Double
    }

    /// The most of `intervals` (spread evenly over each one) that any window of `window` seconds
    /// holds, and the window's actual length (the whole span when shorter than `window`). Only
    /// windows that start at an interval's start or end at an interval's end need trying: the
    /// amount is piecewise linear in the window's position, so its maximum is at such a point.
    static func busiestWindow(_ intervals: [Interval], window: Double) -> (amount: Double, seconds: Double) {
        guard let first = intervals.map(\.start).min(), let last = intervals.map(\.end).max() else { return (0, 0) }
        let span = last - first
        guard span > window else { return (intervals.reduce(0) { $0 + $1.amount }, span) }
        var best = 0.0
        let starts = intervals.map(\.start) + intervals.map { $0.end - window }
        for start in starts where start >= first && start + window <= last + 1e-9 {
            let end = start + window
            let amount = intervals.reduce(0.0) { sum, interval in
                let length = interval.end - interval.start
                guard length > 0 else { return sum + (interval.start >= start && interval.start <= end ? interval.amount : 0) }
                let overlap = max(0, min(end, interval.end) - max(start, interval.start))
                return sum + interval.amount * overlap / length
            }
            best = max(best, amount)
        }
        return (best, window)
    }

    static func evaluateWakeups(_ run: RunReport) -> AppleLimitResult {
        let limit = wakeups
        let intervals = run.timeline.activity.map { Interval(start: $0.time - $0.interval, end: $0.time, amount: Double($0.wakeups)) }
        guard !intervals.isEmpty else {
            return AppleLimitResult(id: limit.id, status: .unavailable, summary: "no /proc samples of the app's threads: its wakeups were not counted",
                                    source: limit.source)
        }
        let busiest = busiestWindow(intervals, window: limit.windowSeconds)
        let rate = busiest.seconds > 0 ? busiest.amount / busiest.seconds : 0
        let perSecondLimit = limit.threshold / limit.windowSeconds
        let seconds = rate > perSecondLimit ? limit.threshold / rate : nil
        let windowText = busiest.seconds >= limit.windowSeconds ? "in the busiest 300 s" : "over the whole run (\(duration(busiest.seconds)))"
        let measured = "\(HumanUnits.count(busiest.amount.rounded())) wakeups \(windowText), \(DisplayFormat.number(rate))/s"
        let status: AppleLimitResult.Status
        let summary: String
        if busiest.amount > limit.threshold {
            status = .exceeded
            summary = "exceeded: \(measured), over the limit of 150/s over 300 s"
        } else if let seconds {
            status = .wouldTrip
            summary = "would hit the wakeups report after \(duration(seconds)) at this rate: \(measured), over the limit of 150/s"
        } else {
            status = .within
            summary = "within: \(measured), under the limit of 150/s over 300 s"
        }
        return AppleLimitResult(id: limit.id, status: status, measured: busiest.amount, unit: "wakeups", rate: rate,
                                projected: rate * limit.windowSeconds, secondsToLimit: seconds, summary: summary,
                                measuredSource: "timeline.activity: proc:task/*/status.voluntary_ctxt_switches between samples, the ends from the run's totals",
                                source: limit.source)
    }

    static func evaluateDiskWrites(_ run: RunReport) -> AppleLimitResult {
        let limit = diskWrites
        let metric = run.metrics[MetricName.diskPhysicalBytesWritten]
        guard let bytes = metric?.value else {
            return AppleLimitResult(id: limit.id, status: .unavailable,
                                    summary: "write_bytes was not measured: \(metric?.unavailable ?? "no disk.physicalBytesWritten metric")",
                                    measuredSource: metric?.source, source: limit.source)
        }
        let wall = run.durationSeconds
        guard wall > 0 else {
            return AppleLimitResult(id: limit.id, status: .unavailable, measured: bytes, unit: "bytes",
                                    summary: "the run had no duration to take a rate over", measuredSource: metric?.source, source: limit.source)
        }
        let rate = bytes / wall
        let projected = rate * limit.windowSeconds
        let seconds = rate > 0 ? limit.threshold / rate : nil
        let measured = "\(appleMB(bytes)) in \(duration(wall)) is \(appleMB(projected)) per 24 h (\(DisplayFormat.number(rate / 1000)) KB/s)"
        let status: AppleLimitResult.Status
        let summary: String
        if bytes > limit.threshold {
            status = .exceeded
            summary = "exceeded within the run: \(measured), over the limit of 1073.74 MB per 24 h"
        } else if let seconds, seconds < limit.windowSeconds {
            status = .wouldTrip
            summary = "would hit the disk writes report after \(duration(seconds)) at this rate: \(measured), \(DisplayFormat.number(projected / limit.threshold))× the limit of 1073.74 MB per 24 h"
        } else {
            status = .within
            summary = "within: \(measured), under the limit of 1073.74 MB per 24 h"
        }
        return AppleLimitResult(id: limit.id, status: status, measured: bytes, unit: "bytes", rate: rate, projected: projected,
                                secondsToLimit: status == .within ? nil : seconds, summary: summary, measuredSource: metric?.source,
                                source: limit.source)
    }

    static func evaluateHangs(_ run: RunReport) -> AppleLimitResult {
        let limit = hangs
        let all = run.timeline.hangs ?? []
        let buckets = hangBuckets.map { threshold in
            let over = all.filter { $0.durationMs >= threshold }
            return HangBucket(thresholdMs: threshold, count: over.count, firstAt: over.map(\.start).min())
        }
        let longest = all.map(\.durationMs).max()
        let counts = buckets.map { "\($0.count) ≥ \(HumanUnits.format($0.thresholdMs, unit: "ms"))" }.joined(separator: ", ")
        guard let first = buckets.first?.firstAt, let longest else {
            return AppleLimitResult(id: limit.id, status: .within, measured: 0, unit: "ms", buckets: buckets,
                                    summary: "within: no main-thread hang of 250 ms or more", measuredSource: "kit:handlers", source: limit.source)
        }
        return AppleLimitResult(id: limit.id, status: .exceeded, measured: longest, unit: "ms", secondsToLimit: first, buckets: buckets,
                                summary: "exceeded: \(counts); the first began \(duration(first)) after exec, the longest \(HumanUnits.format(longest, unit: "ms"))",
                                measuredSource: "kit:handlers", source: limit.source)
    }

    static func evaluateBackgroundCPU(_ run: RunReport) -> AppleLimitResult {
        let limit = backgroundCPU
        let background = run.timeline.states.filter { $0.state == .background && $0.end > $0.start }
        guard !background.isEmpty else {
            return AppleLimitResult(id: limit.id, status: .notApplicable, summary: "not applicable: the app was never in the background", source: limit.source)
        }
        guard !run.timeline.activity.isEmpty else {
            return AppleLimitResult(id: limit.id, status: .unavailable, summary: "no /proc samples: the background CPU was not measured", source: limit.source)
        }
        // Each background stretch on its own (the monitor's window is wall time in the background).
        var best: (cpu: Double, seconds: Double) = (0, 0)
        for stretch in background {
            let intervals = run.timeline.activity.compactMap { sample -> Interval? in
                let start = max(stretch.start, sample.time - sample.interval), end = min(stretch.end, sample.time)
                guard end > start, sample.interval > 0 else { return nil }
                return Interval(start: start, end: end, amount: sample.cpuSeconds * (end - start) / sample.interval)
            }
            let busiest = busiestWindow(intervals, window: limit.windowSeconds)
            if busiest.seconds > 0, busiest.amount / busiest.seconds > (best.seconds > 0 ? best.cpu / best.seconds : -1) {
                best = (busiest.amount, busiest.seconds)
            }
        }
        let rate = best.seconds > 0 ? best.cpu / best.seconds : 0
        let fraction = limit.threshold / limit.windowSeconds
        let seconds = rate > fraction ? limit.threshold / rate : nil
        let measured = "\(DisplayFormat.number(best.cpu)) s of CPU over \(duration(best.seconds)) in the background (\(DisplayFormat.number(rate * 100))% of a core)"
        let status: AppleLimitResult.Status
        let summary: String
        if best.cpu > limit.threshold {
            status = .exceeded
            summary = "exceeded: \(measured), over the limit of 80% over 60 s: iOS would kill the app"
        } else if let seconds {
            status = .wouldTrip
            summary = "would be killed after \(duration(seconds)) in the background at this rate: \(measured), over the limit of 80% over 60 s"
        } else {
            status = .within
            summary = "within: \(measured), under the limit of 80% over 60 s"
        }
        return AppleLimitResult(id: limit.id, status: status, measured: best.cpu, unit: "CPU-seconds", rate: rate,
                                projected: rate * limit.windowSeconds, secondsToLimit: seconds, summary: summary,
                                measuredSource: "timeline.activity: proc:task/*/schedstat between samples, in the background states", source: limit.source)
    }

    /// Bytes as Apple's reports print them: decimal megabytes with two decimals (`1073.74 MB`).
    public static func appleMB(_ bytes: Double) -> String {
        String(format: "%.2f MB", bytes / 1e6)
    }

    /// `41 s`, `3.75 min`, `54 min`, `3.2 h`.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "∞" }
        if seconds < 120 { return DisplayFormat.number(seconds) + " s" }
        if seconds < 600 { return DisplayFormat.number(seconds / 60) + " min" }
        if seconds < 7200 { return String(Int((seconds / 60).rounded())) + " min" }
        return DisplayFormat.number(seconds / 3600) + " h"
    }
}
