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
        let peakBytes = samples.map { $0.anonymousBytes + $0.fileBytes + $0.lazyFreeBytes }.max() ?? 0
        var svg = "<text x=\"4\" y=\"\(f(top + 24))\" class=\"tick\">0–\(e(HumanUnits.bytes(Double(peakBytes))))</text>"
        let peak = Double(max(1, peakBytes))
        let bottom = top + laneHeight - 2
        let scale = (laneHeight - 6) / peak
        // One point per pixel column at most: the column's last sample.
        var points: [(start: Double, end: Double, sample: MemoryLaneSample)] = []
        for (index, sample) in samples.enumerated() {
            let start = x(index == 0 ? max(0, sample.time - 0.2) : samples[index - 1].time), end = x(sample.time)
            if let last = points.last, Int(last.start) == Int(start) {
                points[points.count - 1] = (last.start, end, sample)
            } else {
                points.append((start, end, sample))
            }
        }
        if let first = points.first {
            // Drawn back to front: the total (lazy-free on top), then anonymous + file, then anonymous.
            let layers: [(String, (MemoryLaneSample) -> Int)] = [
                ("m-lazy", { $0.anonymousBytes + $0.fileBytes + $0.lazyFreeBytes }),
                ("m-file", { $0.anonymousBytes + $0.fileBytes }),
                ("m-anon", { $0.anonymousBytes }),
            ]
            for (cssClass, height) in layers where points.contains(where: { height($0.sample) > 0 }) {
                // Whole pixels: the lane is 20 px tall, and a decimal per point would double the path.
                var path = "M\(Int(first.start)) \(Int(bottom))"
                var lastY = -1, lastX = Int(first.start)
                for point in points {
                    let y = Int((bottom - Double(height(point.sample)) * scale).rounded())
                    let x = max(Int(point.end.rounded()), lastX + 1)
                    path += (y == lastY ? "" : "V\(y)") + "H\(x)"
                    lastY = y
                    lastX = x
                }
                svg += "<path d=\"\(path)V\(Int(bottom))Z\" class=\"\(cssClass)\"/>"
            }
            // One tooltip for the lane: its peak and its end, split by kind. A tooltip per
            // sample would cost more than the drawing; report.json has every sample.
            func split(_ sample: MemoryLaneSample) -> String {
                "\(HumanUnits.bytes(Double(sample.anonymousBytes + sample.fileBytes + sample.lazyFreeBytes))) at \(f(sample.time)) s (anon \(HumanUnits.bytes(Double(sample.anonymousBytes))), file \(HumanUnits.bytes(Double(sample.fileBytes))), lazy-free \(HumanUnits.bytes(Double(sample.lazyFreeBytes))))"
            }
            let peakSample = samples.max { $0.anonymousBytes + $0.fileBytes + $0.lazyFreeBytes < $1.anonymousBytes + $1.fileBytes + $1.lazyFreeBytes }!
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
