import Foundation
import FrugalCore

/// Bounds on what a timeline draws.
enum BoundedTimeline {
    /// The longest duration drawn: a day (no scenario comes near it); NaN draws as the shortest.
    /// A hand-written report may hold any JSON number: the axis then has a dozen ticks at most
    /// and every x coordinate stays finite.
    static func drawableDuration(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return seconds.isNaN ? 0.001 : 86_400 }
        return min(max(seconds, 0.001), 86_400)
    }
}

/// Draws a run's timeline as inline SVG, with the lanes the run has and none it does not: the
/// app's state (a band per state), the scenario's steps (labelled; a kill, a relaunch and the
/// like also draw a line across every lane), the main thread's handlers (hangs in red with
/// their duration written beside them, the stack in the tooltip), the wakeups per `/proc`
/// sample (with the lane's peak rate), the disk lane when the app wrote through FrugalKit, the
/// radio lane when the run went through the shaping proxy (`TimelineSVG+Radio.swift`), and the
/// memory lane with its scale (`TimelineSVG+Memory.swift`). Every mark has a `<title>`.
///
/// Colours are CSS classes (`HTMLReportRenderer.style`), so the page defines each once and
/// dark mode can change them; the one legend is HTML beside the drawing (`legend(_:)`).
public enum TimelineSVG {
    static let width = 960.0
    static let labelWidth = 96.0
    static let laneHeight = 26.0
    static let stepsLaneHeight = 40.0
    /// At most this many duration labels on the main-thread lane (they also need room).
    static let maxLabels = 200

    /// The lanes of a timeline, in drawing order.
    enum Lane: String {
        case state, steps, main = "main thread", wakeups, disk, radio, memory
    }

    /// The lanes `timeline` has data for.
    static func lanes(_ timeline: Timeline) -> [Lane] {
        var lanes: [Lane] = []
        if !timeline.states.isEmpty { lanes.append(.state) }
        if !timeline.steps.isEmpty { lanes.append(.steps) }
        if !timeline.handlers.isEmpty || !(timeline.hangs ?? []).isEmpty || !(timeline.marks ?? []).isEmpty { lanes.append(.main) }
        if !timeline.activity.isEmpty { lanes.append(.wakeups) }
        if !(timeline.disk ?? []).isEmpty { lanes.append(.disk) }
        if timeline.radio != nil { lanes.append(.radio) }
        if timeline.memory != nil || timeline.memoryMarks != nil { lanes.append(.memory) }
        return lanes
    }

    static func height(_ lane: Lane) -> Double { lane == .steps ? stepsLaneHeight : laneHeight }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
    static func e(_ text: String) -> String { HTMLEscaping.escape(text) }

    /// The SVG of `timeline`.
    public static func render(_ timeline: Timeline) -> String {
        // The radio lane may run past the app's exit, to the end of the last tail.
        // A hand-written report may hold any JSON number: a non-finite or absurd duration is drawn as
        // a day at most, so the axis below has at most a dozen ticks and x() stays finite.
        let duration = BoundedTimeline.drawableDuration(max(timeline.duration, timeline.radio?.intervals.last?.end ?? 0, 0.001))
        let plotWidth = width - labelWidth - 10
        func x(_ t: Double) -> Double { labelWidth + max(0, min(t, duration)) / duration * plotWidth }
        let lanes = lanes(timeline)
        var top: [Lane: Double] = [:]
        var y = 0.0
        for lane in lanes {
            top[lane] = y
            y += height(lane)
        }
        let plotBottom = y
        let svgHeight = plotBottom + 20
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" viewBox=\"0 0 \(f(width)) \(f(svgHeight))\" role=\"img\" aria-label=\"run timeline: \(lanes.map(\.rawValue).joined(separator: ", "))\">"
        var rules = ""
        for lane in lanes {
            let laneTop = top[lane]!
            svg += "<text x=\"4\" y=\"\(f(laneTop + 13))\" class=\"lane\">\(lane.rawValue)</text>"
            rules += "M\(Int(labelWidth)) \(f(laneTop + height(lane)))H\(Int(width - 10))"
        }
        svg += "<path d=\"\(rules)\" class=\"rule\"/>"
        if let laneTop = top[.state] {
            for interval in timeline.states {
                let start = x(interval.start), end = x(interval.end)
                svg += "<rect x=\"\(f(start))\" y=\"\(f(laneTop + 4))\" width=\"\(f(max(1, end - start)))\" height=\"18\" class=\"s-\(stateClass(interval.state))\"><title>\(e(interval.state.rawValue)) \(f(interval.start))–\(f(interval.end)) s</title></rect>"
            }
        }
        if let laneTop = top[.steps] { svg += stepsLane(timeline.steps, top: laneTop, bottom: plotBottom, x: x) }
        if let laneTop = top[.main] { svg += mainThreadLane(timeline, top: laneTop, x: x) }
        if let laneTop = top[.wakeups] { svg += wakeupsLane(timeline.activity, top: laneTop, x: x) }
        if let laneTop = top[.disk] { svg += diskLane(timeline.disk ?? [], top: laneTop, x: x) }
        if let laneTop = top[.radio], let radio = timeline.radio { svg += radioLane(radio, top: laneTop, x: x) }
        if let laneTop = top[.memory] { svg += memoryLane(timeline, top: laneTop, x: x) }
        svg += axis(duration: duration, y: plotBottom + 14, x: x)
        return svg + "</svg>"
    }

    static func stateClass(_ state: AppState) -> String {
        switch state {
        case .active: return "active"
        case .inactive: return "inactive"
        case .background: return "background"
        case .suspended: return "suspended"
        case .notRunning: return "notrunning"
        }
    }

    /// Ticks at round steps (1, 2, 5 × 10ⁿ s), at most about ten of them.
    static func axis(duration: Double, y: Double, x: (Double) -> Double) -> String {
        let raw = duration / 10
        let magnitude = pow(10, floor(log10(max(raw, 0.001))))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        var svg = ""
        var tick = 0.0
        while tick <= duration + step * 0.001 {
            let label = step >= 1 ? "\(Int(tick.rounded())) s" : HumanUnits.seconds(tick)
            svg += "<text x=\"\(f(x(tick)))\" y=\"\(f(y))\" class=\"ax\">\(label)</text>"
            tick += step
        }
        return svg
    }

    /// Steps worth a line across every lane: what changes the app's life.
    static let lifeSteps = Set(StepKind.all.filter(\.drawnAsLifecycle).map(\.name))

    /// A short label for a step, or nil for steps that only pass time.
    /// The step arrives as its description (`pressure(48MiB)`); its kind's ``StepKind/label``
    /// says how to draw it. A name no kind has (a report from another version) is drawn as is.
    static func stepLabel(_ step: String) -> String? {
        let open = step.firstIndex(of: "(")
        guard let kind = StepKind.named(String(step[..<(open ?? step.endIndex)])) else { return step }
        switch kind.label {
        case .hidden: return nil
        case .name: return open == nil ? step : kind.name
        case .argument(let prefix):
            guard let open, step.hasSuffix(")") else { return step }
            return prefix + step[step.index(after: open)...].dropLast()
        }
    }

    /// The steps: a tick per step at the lane's foot, its label above (in one of three rows, so
    /// labels close in time do not overlap; a label that fits nowhere keeps its tooltip), and
    /// for life steps (kill, relaunch...) a dashed line down through every lane.
    static func stepsLane(_ steps: [StepMark], top: Double, bottom: Double, x: (Double) -> Double) -> String {
        var svg = ""
        let rows = 3
        // Life steps claim their rows first; then the others, in time order.
        let ordered = steps.enumerated().sorted { a, b in
            let lifeA = lifeSteps.contains(a.element.step), lifeB = lifeSteps.contains(b.element.step)
            return lifeA != lifeB ? lifeA : a.offset < b.offset
        }
        var labelled: [Int: (row: Int, text: String)] = [:]
        var placed: [(start: Double, end: Double, row: Int)] = []
        for (index, step) in ordered {
            guard let text = stepLabel(step.step) else { continue }
            let textWidth = Double(text.count) * 6 + 6
            // Where the label is drawn: after its step, or before it at the right edge.
            let start = x(step.start) + Double(text.count) * 6 > width - 4 ? x(step.start) - textWidth : x(step.start)
            for row in 0..<rows where !placed.contains(where: { $0.row == row && start < $0.end && start + textWidth > $0.start }) {
                placed.append((start, start + textWidth, row))
                labelled[index] = (row, text)
                break
            }
        }
        for (index, step) in steps.enumerated() {
            // A wait only passes time: its span would cover the lane and hide the steps.
            if step.step.hasPrefix("wait("), step.problem == nil { continue }
            let start = x(step.start)
            let problem = step.problem != nil
            let title = e(step.step + (step.problem.map { ": " + $0 } ?? "")) + " at \(f(step.start)) s"
            if lifeSteps.contains(step.step), step.step != "launch" {
                svg += "<line x1=\"\(f(start))\" y1=\"\(f(top + 2))\" x2=\"\(f(start))\" y2=\"\(f(bottom))\" class=\"life\"/>"
            }
            // One title for the tick and its label, so hovering either names the step. A tick,
            // not the step's span: a black box's launch lasts the whole run and would hide the
            // lane; the span is in the tooltip.
            svg += "<g><title>\(title) (\(HumanUnits.seconds(step.end - step.start)))</title><rect x=\"\(f(start))\" y=\"\(f(top + stepsLaneHeight - 10))\" width=\"3\" height=\"8\" class=\"\(problem ? "st-bad" : "st")\"/>"
            if let label = labelled[index] {
                // A label that would run past the plot's right edge ends at its step instead.
                let overflows = start + Double(label.text.count) * 6 > width - 4
                svg += "<text x=\"\(f(overflows ? start - 1 : start + 1))\" y=\"\(f(top + 10 + Double(label.row) * 10))\" class=\"step\(problem ? " bad" : "")\(overflows ? " end" : "")\">\(e(label.text))</text>"
            }
            svg += "</g>"
        }
        return svg
    }

    static func handlerClass(_ durationMs: Double) -> String {
        durationMs >= Thresholds.hangMilliseconds ? "h-hang" : (durationMs > 50 ? "h-long" : "h")
    }

    /// The main thread: one bar per handler (merged per pixel column when there are too many
    /// to see), and each hang marked with a triangle and its duration.
    static func mainThreadLane(_ timeline: Timeline, top: Double, x: (Double) -> Double) -> String {
        var svg = ""
        // Handlers that start in the same pixel column are one bar: more rectangles there show
        // nothing more and make the page huge (a run of a million handlers). The bar keeps the
        // worst handler's colour; its tooltip the count, the names and the longest. A handler
        // alone in its column keeps its own tooltip.
        var columns: [Int: (handlers: [HandlerSpan], longest: Double, start: Double, end: Double)] = [:]
        var counts: [Int: Int] = [:]
        for handler in timeline.handlers {
            let column = Int(saturating: x(handler.start)) ?? 0
            let end = handler.start + handler.durationMs / 1000
            if var existing = columns[column] {
                if existing.handlers.count < 3 { existing.handlers.append(handler) }
                columns[column] = (existing.handlers, max(existing.longest, handler.durationMs), min(existing.start, handler.start), max(existing.end, end))
                counts[column, default: 1] += 1
            } else {
                columns[column] = ([handler], handler.durationMs, handler.start, end)
            }
        }
        for (key, column) in columns.sorted(by: { $0.key < $1.key }) {
            let start = x(column.start), end = x(column.end)
            let title: String
            if let count = counts[key], count > 1 {
                let names = column.handlers.map(\.name).joined(separator: ", ") + (count > column.handlers.count ? ", …" : "")
                title = e("\(HumanUnits.count(Double(count))) handlers \(f(column.start))–\(f(column.end)) s (\(names)), longest \(HumanUnits.seconds(column.longest / 1000))")
            } else {
                let handler = column.handlers[0]
                let hang = handler.durationMs >= Thresholds.hangMilliseconds
                let waiting = handler.waitingMs.flatMap { $0 >= 1 ? ", \(HumanUnits.seconds($0 / 1000)) waiting off the CPU" : nil } ?? ""
                title = e("\(handler.name): \(HumanUnits.seconds(handler.durationMs / 1000))" + (hang ? " (hang)" : "") + waiting) + " at \(f(handler.start)) s"
            }
            svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 4))\" width=\"\(f(max(1.5, end - start)))\" height=\"18\" class=\"\(handlerClass(column.longest))\"><title>\(title)</title></rect>"
        }
        for hang in timeline.hangs ?? [] {
            let start = x(hang.start), end = x(hang.start + hang.durationMs / 1000)
            let middle = (start + end) / 2
            let stack = hang.stack.map { "\n" + $0.prefix(12).joined(separator: "\n") } ?? "\n(no stack captured)"
            let title = e("hang: \(hang.handler) \(HumanUnits.seconds(hang.durationMs / 1000))\(stack)")
            svg += "<path class=\"hang\" d=\"M\(f(middle - 5)) \(f(top + 1)) L\(f(middle + 5)) \(f(top + 1)) L\(f(middle)) \(f(top + 8)) Z\"><title>\(title)</title></path>"
        }
        // The app's marks: a small diamond under the bars, its name and detail in the tooltip.
        for mark in timeline.marks ?? [] {
            let middle = x(mark.time)
            let title = e("mark: \(mark.name)" + (mark.detail.map { " — \($0)" } ?? "")) + " at \(f(mark.time)) s"
            svg += "<path class=\"amk\" d=\"M\(f(middle)) \(f(top + 21)) L\(f(middle + 3)) \(f(top + 24)) L\(f(middle)) \(f(top + 27)) L\(f(middle - 3)) \(f(top + 24)) Z\"><title>\(title)</title></path>"
        }
        // Hangs and long blocks carry their duration: inside the bar in white where it fits,
        // else just after it, unless that would run into the previous label.
        let long = timeline.handlers.filter { $0.durationMs > 50 }.prefix(maxLabels).map { ($0.start, $0.durationMs) }
        var lastLabelEnd = -Double.infinity
        for (time, durationMs) in long.sorted(by: { $0.0 < $1.0 }) {
            let start = x(time), end = x(time + durationMs / 1000)
            let label = HumanUnits.seconds(durationMs / 1000)
            let textWidth = Double(label.count) * 6 + 4
            if end - start >= textWidth {
                svg += "<text x=\"\(f((start + end) / 2))\" y=\"\(f(top + 17))\" class=\"bar-label\">\(label)</text>"
                lastLabelEnd = end
            } else if start > lastLabelEnd, end + 2 + textWidth < width {
                svg += "<text x=\"\(f(end + 2))\" y=\"\(f(top + 17))\" class=\"hang-label\">\(label)</text>"
                lastLabelEnd = end + 2 + textWidth
            }
        }
        return svg
    }

    /// Wakeups per second between `/proc` samples, as bars scaled to the lane's peak, which the
    /// lane's label states.
    static func wakeupsLane(_ samples: [ActivitySample], top: Double, x: (Double) -> Double) -> String {
        // One bar per pixel column at most: more show nothing more.
        var columns: [Int: ActivitySample] = [:]
        var order: [Int] = []
        for sample in samples {
            let column = Int(saturating: x(sample.time)) ?? 0
            if var existing = columns[column] {
                // A report is a file anyone can write: its counts may be at Int's ends.
                existing.wakeups = existing.wakeups.saturatingAdding(sample.wakeups)
                existing.interval += sample.interval
                existing.cpuSeconds += sample.cpuSeconds
                existing.time = max(existing.time, sample.time)
                columns[column] = existing
            } else {
                columns[column] = sample
                order.append(column)
            }
        }
        let merged = order.compactMap { columns[$0] }
        let peak = merged.map { Double($0.wakeups) / max($0.interval, 0.001) }.max() ?? 0
        var svg = "<text x=\"4\" y=\"\(f(top + 24))\" class=\"tick\">peak \(e(HumanUnits.format(peak, unit: "1/s")))</text>"
        guard peak > 0 else { return svg }
        for sample in merged where sample.wakeups > 0 {
            let rate = Double(sample.wakeups) / max(sample.interval, 0.001)
            let barHeight = max(1, rate / peak * 20)
            let start = x(sample.time - sample.interval), end = x(sample.time)
            svg += "<rect x=\"\(f(start))\" y=\"\(f(top + laneHeight - barHeight))\" width=\"\(f(max(1, end - start)))\" height=\"\(f(barHeight))\" class=\"wk\"><title>\(HumanUnits.count(Double(sample.wakeups))) wakeups in \(HumanUnits.seconds(sample.interval)) ending at \(f(sample.time)) s</title></rect>"
        }
        return svg
    }

    static func diskClass(_ operation: FileWrite.Operation) -> String {
        switch operation {
        case .replace: return "d-replace"
        case .write: return "d-write"
        case .append: return "d-append"
        case .fsync: return "d-fsync"
        case .delete: return "d-delete"
        }
    }

    /// One bar per write, its height growing with the log of its bytes; a dark cap marks an fsync.
    static func diskLane(_ marks: [DiskMark], top: Double, x: (Double) -> Double) -> String {
        guard !marks.isEmpty else { return "" }
        let largest = log2(Double(max(2, marks.map(\.bytes).max() ?? 2)))
        var svg = "<text x=\"4\" y=\"\(f(top + 24))\" class=\"tick\">max \(e(HumanUnits.bytes(Double(marks.map(\.bytes).max() ?? 0))))</text>"
        for mark in marks {
            let height = mark.bytes > 0 ? max(3, log2(Double(max(2, mark.bytes))) / largest * 18) : 6
            let start = x(mark.time), end = x(mark.time + mark.durationMs / 1000)
            var title = "\(mark.operation.rawValue) \(mark.path)"
            if mark.operation.writesContent {
                title += ": \(HumanUnits.bytes(Double(mark.bytes)))" + (mark.changedBytes.map { ", \(HumanUnits.bytes(Double($0))) in changed blocks" } ?? "")
            }
            title += (mark.synced ? ", fsync" : "") + (mark.onMainThread ? ", main thread" : ", background thread")
            svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 22 - height))\" width=\"\(f(max(1.5, end - start)))\" height=\"\(f(height))\" class=\"\(diskClass(mark.operation))\"><title>\(e(title)) at \(f(mark.time)) s</title></rect>"
            if mark.synced {
                svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 2))\" width=\"\(f(max(1.5, end - start)))\" height=\"2\" class=\"d-fsync\"/>"
            }
        }
        return svg
    }
}
