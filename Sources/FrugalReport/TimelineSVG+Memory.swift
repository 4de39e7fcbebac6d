import Foundation
import FrugalCore

extension TimelineSVG {
    /// The memory lane: stacked areas of anonymous, file-backed and lazily-freeable resident
    /// bytes, drawn as one step path per kind (a path costs a few bytes per sample where a bar
    /// per sample cost a few hundred), scaled to the run's peak, which the lane's label states;
    /// the lane's tooltip gives the peak and the last sample, split by kind; warnings and kernel
    /// pressure events as lines with their own tooltips.
    static func memoryLane(_ timeline: Timeline, top: Double, x: (Double) -> Double) -> String {
        let samples = timeline.memory ?? []
        // Sums in Double: a report is a file anyone can write, and Int addition traps on overflow.
        func resident(_ sample: MemoryLaneSample) -> Double {
            Double(sample.anonymousBytes) + Double(sample.fileBytes) + Double(sample.lazyFreeBytes)
        }
        func pixel(_ value: Double) -> Int { Int(saturating: value) ?? 0 }
        let peakBytes = samples.map(resident).max() ?? 0
        var svg = "<text x=\"4\" y=\"\(f(top + 24))\" class=\"tick\">0–\(e(HumanUnits.bytes(peakBytes)))</text>"
        let peak = max(1, peakBytes)
        let bottom = top + laneHeight - 2
        let scale = (laneHeight - 6) / peak
        // One point per pixel column at most: the column's last sample.
        var points: [(start: Double, end: Double, sample: MemoryLaneSample)] = []
        for (index, sample) in samples.enumerated() {
            let start = x(index == 0 ? max(0, sample.time - 0.2) : samples[index - 1].time), end = x(sample.time)
            if let last = points.last, pixel(last.start) == pixel(start) {
                points[points.count - 1] = (last.start, end, sample)
            } else {
                points.append((start, end, sample))
            }
        }
        if let first = points.first {
            // Drawn back to front: the total (lazy-free on top), then anonymous + file, then anonymous.
            let layers: [(String, (MemoryLaneSample) -> Double)] = [
                ("m-lazy", resident),
                ("m-file", { Double($0.anonymousBytes) + Double($0.fileBytes) }),
                ("m-anon", { Double($0.anonymousBytes) }),
            ]
            for (cssClass, height) in layers where points.contains(where: { height($0.sample) > 0 }) {
                // Whole pixels: the lane is 20 px tall, and a decimal per point would double the path.
                var path = "M\(pixel(first.start)) \(pixel(bottom))"
                var lastY = -1, lastX = pixel(first.start)
                for point in points {
                    let y = pixel(bottom - height(point.sample) * scale)
                    let x = max(pixel(point.end), lastX &+ 1)
                    path += (y == lastY ? "" : "V\(y)") + "H\(x)"
                    lastY = y
                    lastX = x
                }
                svg += "<path d=\"\(path)V\(pixel(bottom))Z\" class=\"\(cssClass)\"/>"
            }
            // One tooltip for the lane: its peak and its end, split by kind. A tooltip per
            // sample would cost more than the drawing; report.json has every sample.
            func split(_ sample: MemoryLaneSample) -> String {
                "\(HumanUnits.bytes(resident(sample))) at \(f(sample.time)) s (anon \(HumanUnits.bytes(Double(sample.anonymousBytes))), file \(HumanUnits.bytes(Double(sample.fileBytes))), lazy-free \(HumanUnits.bytes(Double(sample.lazyFreeBytes))))"
            }
            let peakSample = samples.max { resident($0) < resident($1) }!
            let title = "resident: peak \(split(peakSample)); last \(split(samples.last!))"
            svg += "<rect x=\"\(f(labelWidth))\" y=\"\(f(top + 1))\" width=\"\(f(width - 10 - labelWidth))\" height=\"\(f(laneHeight - 2))\" class=\"zone\"><title>\(e(title))</title></rect>"
        }
        for mark in timeline.memoryMarks ?? [] {
            let title = e("\(mark.kind == "kernel" ? "kernel pressure" : "memory warning") \(mark.level)\(mark.detail.map { " (" + $0 + ")" } ?? "") at \(f(mark.time)) s")
            svg += "<line x1=\"\(f(x(mark.time)))\" y1=\"\(f(top + 1))\" x2=\"\(f(x(mark.time)))\" y2=\"\(f(bottom))\" class=\"\(mark.kind == "kernel" ? "mk-kernel" : "mk-warning")\"><title>\(title)</title></line>"
        }
        return svg
    }
}
