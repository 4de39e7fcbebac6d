import FrugalProbe

/// Looking up code addresses in a process's mappings: pure helpers of the tracer's stack walk.
extension WakeupTracer {
    /// The last component of a path.
    static func fileName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// The executable mappings of files among `maps`, sorted by start: what addresses are looked up in.
    static func code(_ maps: [ProcFS.Mapping]) -> [ProcFS.Mapping] {
        maps.filter { $0.executable && $0.path.hasPrefix("/") }.sorted { $0.start < $1.start }
    }

    /// The mapping of sorted `code` holding `address` (binary search: a copied stack is mostly data).
    static func mapping(of address: UInt64, in code: [ProcFS.Mapping]) -> ProcFS.Mapping? {
        var low = 0, high = code.count
        while low < high {
            let middle = (low + high) / 2
            if code[middle].start <= address { low = middle + 1 } else { high = middle }
        }
        return low > 0 && address < code[low - 1].end ? code[low - 1] : nil
    }
}

/// Why wakeups could not be traced here.
struct WakeupTraceUnavailable: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
