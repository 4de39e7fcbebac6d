/// One point of the memory lane: resident bytes by kind, seconds since exec.
public struct MemoryLaneSample: Codable, Sendable, Equatable {
    public var time: Double
    public var anonymousBytes: Int
    public var fileBytes: Int
    public var lazyFreeBytes: Int
}

/// A mark on the memory lane: a warning the app was sent, or a kernel pressure event.
public struct MemoryMark: Codable, Sendable, Equatable {
    public var time: Double
    /// `warning` (delivered to the app) or `kernel` (a cgroup pressure event).
    public var kind: String
    /// The level (`warning`, `critical`, `normal`; `low`, `medium`, `critical` for the kernel).
    public var level: String
    public var detail: String?
}

extension Timeline {
    /// Fills the memory lane from the samples' `smaps_rollup` split, the harness's deliveries
    /// and the kernel's pressure events; leaves it nil when there is nothing to draw.
    mutating func addMemoryLane(_ analysis: RunAnalysis) {
        let record = analysis.record
        let lane = record.samples.compactMap { sample in
            sample.memory.map { MemoryLaneSample(time: analysis.runTime(sample.time), anonymousBytes: $0.anonymousBytes,
                                                 fileBytes: $0.fileBytes, lazyFreeBytes: $0.lazyFreeBytes) }
        }
        var marks: [MemoryMark] = []
        for delivery in record.memory?.deliveries ?? [] {
            marks.append(MemoryMark(time: analysis.runTime(delivery.time), kind: "warning", level: delivery.level.rawValue, detail: delivery.origin))
        }
        for event in record.memory?.pressureEvents ?? [] {
            marks.append(MemoryMark(time: analysis.runTime(event.time), kind: "kernel", level: event.level, detail: event.source))
        }
        marks.sort { $0.time < $1.time }
        memory = lane.isEmpty ? nil : lane
        memoryMarks = marks.isEmpty ? nil : marks
    }
}
