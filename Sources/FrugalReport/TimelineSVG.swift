import Foundation
import FrugalCore

/// Draws a run's timeline as inline SVG: lanes for the app state, the scenario's steps, the
/// main thread's handlers (hangs in red) and the wakeups per `/proc` sample.
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
        let duration = max(timeline.duration, 0.001)
        let plotWidth = width - labelWidth - 10
        func x(_ t: Double) -> Double { labelWidth + max(0, min(t, duration)) / duration * plotWidth }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        let lanes = ["state", "steps", "main thread", "wakeups"]
        let height = Double(lanes.count) * laneHeight + 24
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
                let title = HTMLEscaping.escape("\(handler.name): \(DisplayFormat.number(handler.durationMs)) ms" + (hang ? " (hang)" : ""))
                svg += "<rect x=\"\(f(start))\" y=\"\(f(2 * laneHeight + 4))\" width=\"\(f(max(1.5, end - start)))\" height=\"18\" fill=\"\(color)\"><title>\(title) at \(f(handler.start)) s</title></rect>"
            }
        } else {
            var columns: [Int: (count: Int, longest: Double, start: Double, end: Double)] = [:]
            for handler in timeline.handlers {
                let column = Int(x(handler.start))
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
                let column = Int(x(sample.time))
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
        let axisY = Double(lanes.count) * laneHeight + 16
        let tickStep = max(1, (duration / 10).rounded(.up))
        var tick = 0.0
        while tick <= duration + 0.0001 {
            svg += "<text x=\"\(f(x(tick)))\" y=\"\(f(axisY))\" class=\"tick\" text-anchor=\"middle\">\(Int(tick))s</text>"
            tick += tickStep
        }
        svg += "</svg>"
        return svg
    }
}
