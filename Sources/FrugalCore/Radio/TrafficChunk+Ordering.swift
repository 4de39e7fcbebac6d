extension Array where Element == TrafficChunk {
    /// The chunks in time order; chunks with equal times keep their input order
    /// so that every analysis sees the same sequence for the same trace.
    func sortedByTime() -> [TrafficChunk] {
        enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }
}
