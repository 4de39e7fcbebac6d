import Foundation
import FrugalCore

/// Bounds on what a timeline draws.
enum BoundedTimeline {
    /// The longest duration drawn: a day (no scenario comes near it); NaN draws as the shortest.
    static func drawableDuration(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return seconds.isNaN ? 0.001 : 86_400 }
        return min(max(seconds, 0.001), 86_400)
    }
}

/// Draws a run's timeline as inline SVG: lanes for the app state (a band per state, all five
/// colours), the scenario's steps, the main thread's handlers (hangs in red, marked with a
/// triangle whose tooltip holds the stack), the wakeups per `/proc` sample and, when the app
/// wrote through FrugalKit, its writes and fsyncs (the disk lane), and, when the run went through
/// the shaping proxy, the radio's states with the app's requests (`TimelineSVG+Radio.swift`).
public enum TimelineSVG {
    static let width = 960.0
    static let labelWidth = 110.0
    static let laneHeight = 26.0
    /// More bars than this in a lane are merged per pixel column.
    static let maxBarsPerLane = 2000

    static func stateColor(_ state: AppState) -> String {
        switch state {
        case .active: return "#4caf50"
        case .inactive: return "#ffc107"
        case .background: return "#2196f3"
        case .suspended: return "#9e9e9e"
        case .notRunning: return "#eeeeee"
        }
    }

    /// The SVG of `timeline`.
    public static func render(_ timeline: Timeline) -> String {
        // The radio lane may run past the app's exit, to the end of the last tail.
        // A hand-written report may hold any JSON number: a non-finite or absurd duration is drawn as
        // a day at most, so the axis below has at most a dozen ticks and x() stays finite.
        let duration = BoundedTimeline.drawableDuration(max(timeline.duration, timeline.radio?.intervals.last?.end ?? 0, 0.001))
        let plotWidth = width - labelWidth - 10
        func x(_ t: Double) -> Double { labelWidth + max(0, min(t, duration)) / duration * plotWidth }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        let disk = timeline.disk ?? []
        let hasMemory = timeline.memory != nil || timeline.memoryMarks != nil
        let lanes = ["state", "steps", "main thread", "wakeups"] + (disk.isEmpty ? [] : ["disk"]) + (timeline.radio == nil ? [] : ["radio"])
            + (hasMemory ? ["memory"] : [])
        let height = Double(lanes.count) * laneHeight + 40
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" viewBox=\"0 0 \(f(width)) \(f(height))\" width=\"100%\" role=\"img\" aria-label=\"run timeline\">"
        for (index, lane) in lanes.enumerated() {
            let y = Double(index) * laneHeight
            svg += "<text x=\"4\" y=\"\(f(y + 17))\" class=\"lane\">\(lane)</text>"
            svg += "<line x1=\"\(f(labelWidth))\" y1=\"\(f(y + laneHeight))\" x2=\"\(f(width - 10))\" y2=\"\(f(y + laneHeight))\" stroke=\"#ddd\"/>"
        }
        for interval in timeline.states {
            let start = x(interval.start), end = x(interval.end)
            svg += "<rect x=\"\(f(start))\" y=\"4\" width=\"\(f(max(1, end - start)))\" height=\"18\" fill=\"\(stateColor(interval.state))\"><title>\(HTMLEscaping.escape(interval.state.rawValue)) \(f(interval.start))–\(f(interval.end)) s</title></rect>"
        }
        for step in timeline.steps {
            let start = x(step.start), end = x(step.end)
            let color = step.problem == nil ? "#90a4ae" : "#e53935"
            let title = HTMLEscaping.escape(step.step + (step.problem.map { ": " + $0 } ?? ""))
            svg += "<rect x=\"\(f(start))\" y=\"\(f(laneHeight + 6))\" width=\"\(f(max(1.5, end - start)))\" height=\"14\" fill=\"\(color)\" fill-opacity=\"0.5\" stroke=\"\(color)\"><title>\(title) at \(f(step.start)) s</title></rect>"
        }
        // Beyond a few bars per pixel more rectangles show nothing more and make the page huge
        // (a run of a million handlers), so dense lanes are merged per pixel column, keeping the
        // worst handler's colour and the counts in the tooltip.
        if timeline.handlers.count <= maxBarsPerLane {
            for handler in timeline.handlers {
                let start = x(handler.start), end = x(handler.start + handler.durationMs / 1000)
                let hang = handler.durationMs >= Thresholds.hangMilliseconds
                let color = hang ? "#e53935" : (handler.durationMs > 50 ? "#fb8c00" : "#5c6bc0")
                let waiting = handler.waitingMs.flatMap { $0 >= 1 ? ", \(DisplayFormat.number($0)) ms waiting off the CPU" : nil } ?? ""
                let title = HTMLEscaping.escape("\(handler.name): \(DisplayFormat.number(handler.durationMs)) ms" + (hang ? " (hang)" : "") + waiting)
                svg += "<rect x=\"\(f(start))\" y=\"\(f(2 * laneHeight + 4))\" width=\"\(f(max(1.5, end - start)))\" height=\"18\" fill=\"\(color)\"><title>\(title) at \(f(handler.start)) s</title></rect>"
            }
        } else {
            var columns: [Int: (count: Int, longest: Double, start: Double, end: Double)] = [:]
            for handler in timeline.handlers {
                let column = Int(saturating: x(handler.start)) ?? 0
                let end = handler.start + handler.durationMs / 1000
                if let existing = columns[column] {
                    columns[column] = (existing.count + 1, max(existing.longest, handler.durationMs), min(existing.start, handler.start), max(existing.end, end))
                } else {
                    columns[column] = (1, handler.durationMs, handler.start, end)
                }
            }
            for (_, column) in columns.sorted(by: { $0.key < $1.key }) {
                let start = x(column.start), end = x(column.end)
                let hang = column.longest >= Thresholds.hangMilliseconds
                let color = hang ? "#e53935" : (column.longest > 50 ? "#fb8c00" : "#5c6bc0")
                svg += "<rect x=\"\(f(start))\" y=\"\(f(2 * laneHeight + 4))\" width=\"\(f(max(1.5, end - start)))\" height=\"18\" fill=\"\(color)\"><title>\(column.count) handlers \(f(column.start))–\(f(column.end)) s, longest \(DisplayFormat.number(column.longest)) ms</title></rect>"
            }
        }
        var activity = timeline.activity
        if activity.count > maxBarsPerLane {
            var merged: [Int: ActivitySample] = [:]
            for sample in activity {
                let column = Int(saturating: x(sample.time)) ?? 0
                if var existing = merged[column] {
                    existing.wakeups += sample.wakeups
                    existing.interval += sample.interval
                    existing.cpuSeconds += sample.cpuSeconds
                    existing.time = max(existing.time, sample.time)
                    merged[column] = existing
                } else {
                    merged[column] = sample
                }
            }
            activity = merged.sorted { $0.key < $1.key }.map(\.value)
        }
        let peak = max(1, activity.map { Double($0.wakeups) / max($0.interval, 0.001) }.max() ?? 1)
        for sample in activity where sample.wakeups > 0 {
            let rate = Double(sample.wakeups) / max(sample.interval, 0.001)
            let barHeight = max(1, rate / peak * 20)
            let start = x(sample.time - sample.interval), end = x(sample.time)
            svg += "<rect x=\"\(f(start))\" y=\"\(f(4 * laneHeight - barHeight))\" width=\"\(f(max(1, end - start)))\" height=\"\(f(barHeight))\" fill=\"#8e24aa\"><title>\(sample.wakeups) wakeups in \(f(sample.interval)) s ending at \(f(sample.time)) s</title></rect>"
        }
        svg += diskLane(disk, top: 4 * laneHeight, x: x)
        for hang in timeline.hangs ?? [] {
            let start = x(hang.start), end = x(hang.start + hang.durationMs / 1000)
            let middle = (start + end) / 2
            let stack = hang.stack.map { "\n" + $0.prefix(12).joined(separator: "\n") } ?? "\n(no stack captured)"
            let title = HTMLEscaping.escape("hang: \(hang.handler) \(DisplayFormat.number(hang.durationMs)) ms\(stack)")
            svg += "<path class=\"hang\" d=\"M\(f(middle - 5)) \(f(2 * laneHeight + 1)) L\(f(middle + 5)) \(f(2 * laneHeight + 1)) L\(f(middle)) \(f(2 * laneHeight + 8)) Z\" fill=\"#b71c1c\"><title>\(title)</title></path>"
        }
        if let radio = timeline.radio {
            // The radio lane comes after the disk lane when there is one.
            svg += radioLane(radio, top: Double(disk.isEmpty ? 4 : 5) * laneHeight, x: x)
        }
        if hasMemory { svg += memoryLane(timeline, top: Double(lanes.count - 1) * laneHeight, x: x, f: f) }
        let axisY = Double(lanes.count) * laneHeight + 16
        let tickStep = max(1, (duration / 10).rounded(.up))
        var tick = 0.0
        while tick <= duration + 0.0001 {
            svg += "<text x=\"\(f(x(tick)))\" y=\"\(f(axisY))\" class=\"tick\" text-anchor=\"middle\">\(DisplayFormat.integer(tick))s</text>"
            tick += tickStep
        }
        // A legend for the state bands, so suspended and not-running read as states, not gaps.
        var legendX = labelWidth
        for state in AppState.allCases {
            svg += "<rect x=\"\(f(legendX))\" y=\"\(f(axisY + 6))\" width=\"10\" height=\"10\" fill=\"\(stateColor(state))\" stroke=\"#999\" stroke-width=\"0.5\"/>"
            svg += "<text x=\"\(f(legendX + 14))\" y=\"\(f(axisY + 15))\" class=\"tick\">\(state.rawValue)</text>"
            legendX += 100
        }
        svg += "</svg>"
        return svg
    }

    static func diskColor(_ operation: FileWrite.Operation) -> String {
        switch operation {
        case .replace: return "#ef6c00"
        case .write: return "#00897b"
        case .append: return "#3949ab"
        case .fsync: return "#424242"
        case .delete: return "#c62828"
        }
    }

    /// One bar per write, its height growing with the log of its bytes; a dark cap marks an fsync.
    static func diskLane(_ marks: [DiskMark], top: Double, x: (Double) -> Double) -> String {
        guard !marks.isEmpty else { return "" }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        let largest = log2(Double(max(2, marks.map(\.bytes).max() ?? 2)))
        var svg = ""
        for mark in marks {
            let height = mark.bytes > 0 ? max(3, log2(Double(max(2, mark.bytes))) / largest * 18) : 6
            let start = x(mark.time), end = x(mark.time + mark.durationMs / 1000)
            var title = "\(mark.operation.rawValue) \(mark.path)"
            if mark.operation.writesContent {
                title += ": \(mark.bytes) bytes" + (mark.changedBytes.map { ", \($0) in changed blocks" } ?? "")
            }
            title += (mark.synced ? ", fsync" : "") + (mark.onMainThread ? ", main thread" : ", background thread")
            svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 22 - height))\" width=\"\(f(max(1.5, end - start)))\" height=\"\(f(height))\" fill=\"\(diskColor(mark.operation))\"><title>\(HTMLEscaping.escape(title)) at \(f(mark.time)) s</title></rect>"
            if mark.synced {
                svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 2))\" width=\"\(f(max(1.5, end - start)))\" height=\"2\" fill=\"#212121\"/>"
            }
        }
        return svg
    }

    /// The memory lane: stacked bars of anonymous (blue), file-backed (green) and lazily-freeable
    /// (grey) resident bytes per sample, with warnings (orange) and kernel pressure events (red).
    static func memoryLane(_ timeline: Timeline, top: Double, x: (Double) -> Double, f: (Double) -> String) -> String {
        var svg = ""
        let samples = timeline.memory ?? []
        let peak = Double(max(1, samples.map { $0.anonymousBytes + $0.fileBytes + $0.lazyFreeBytes }.max() ?? 1))
        let bottom = top + laneHeight - 2
        for (index, sample) in samples.enumerated() {
            let start = x(index == 0 ? max(0, sample.time - 0.2) : samples[index - 1].time), end = x(sample.time)
            var y = bottom
            for (bytes, color) in [(sample.anonymousBytes, "#1e88e5"), (sample.fileBytes, "#43a047"), (sample.lazyFreeBytes, "#bdbdbd")] where bytes > 0 {
                let height = Double(bytes) / peak * (laneHeight - 6)
                y -= height
                svg += "<rect x=\"\(f(start))\" y=\"\(f(y))\" width=\"\(f(max(1, end - start)))\" height=\"\(f(height))\" fill=\"\(color)\"/>"
            }
            let title = "anonymous \(ByteCount.display(Double(sample.anonymousBytes))), file \(ByteCount.display(Double(sample.fileBytes))), lazy-free \(ByteCount.display(Double(sample.lazyFreeBytes))) at \(f(sample.time)) s"
            svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 2))\" width=\"\(f(max(1, end - start)))\" height=\"\(f(laneHeight - 4))\" fill=\"transparent\"><title>\(HTMLEscaping.escape(title))</title></rect>"
        }
        for mark in timeline.memoryMarks ?? [] {
            let color = mark.kind == "kernel" ? "#e53935" : "#fb8c00"
            let title = HTMLEscaping.escape("\(mark.kind == "kernel" ? "kernel pressure" : "memory warning") \(mark.level)\(mark.detail.map { " (" + $0 + ")" } ?? "") at \(f(mark.time)) s")
            svg += "<line x1=\"\(f(x(mark.time)))\" y1=\"\(f(top + 1))\" x2=\"\(f(x(mark.time)))\" y2=\"\(f(bottom))\" stroke=\"\(color)\" stroke-width=\"2\"><title>\(title)</title></line>"
        }
        return svg
    }
}
