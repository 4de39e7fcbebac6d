/// What the run's processes read of the bundle's resource files into their memory, use by use,
/// from the harness's ``ResourceTrace``: the memory audits' evidence for any app or program. Pure.
public struct ResourceReads: Sendable {
    /// One use of a resource file and what it cost in memory.
    public struct Use: Sendable, Equatable {
        public var access: ResourceTrace.Access
        /// The installed file's size (nil: a file the harness did not install).
        public var fileBytes: Int?
        /// Bytes of the file copied into the process's memory by `read()`: 0 when it was never
        /// read (mapped, or only opened); nil when it was read but `rchar` could not be read.
        public var bytesRead: Int?
        public var path: String { access.path }
    }

    public let uses: [Use]

    /// Each use's bytes read: at most the file's size and at most the `rchar` its window moved;
    /// uses whose `rchar` windows overlap (eight files read in one wakeup of the watcher) share
    /// their window's bytes, so no byte read counts for two files.
    public init(_ trace: ResourceTrace) {
        let sizes = Dictionary(trace.files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        var uses = trace.accesses.map { access -> Use in
            let size = sizes[access.path]
            guard access.reads > 0 else { return Use(access: access, fileBytes: size, bytesRead: 0) }
            let bound = access.bytesReadAtMost.map { min($0, size ?? Int.max) }
            return Use(access: access, fileBytes: size, bytesRead: bound)
        }
        // Clusters of read uses whose windows overlap: their bounds together are at most the
        // cluster's own rchar movement.
        let windowed = uses.indices.filter { uses[$0].access.reads > 0 && uses[$0].access.readWindow != nil && uses[$0].bytesRead != nil }
            .sorted { uses[$0].access.readWindow!.lowerBound < uses[$1].access.readWindow!.lowerBound }
        var cluster: [Int] = []
        var clusterEnd = Int.min
        func settle() {
            guard cluster.count > 1, let low = cluster.map({ uses[$0].access.readWindow!.lowerBound }).min() else { return }
            let moved = clusterEnd - low
            let claimed = cluster.reduce(0) { $0 + (uses[$1].bytesRead ?? 0) }
            guard claimed > moved, claimed > 0 else { return }
            for index in cluster {
                let share: Double = Double(uses[index].bytesRead ?? 0) * Double(max(0, moved)) / Double(claimed)
                uses[index].bytesRead = Int(share.rounded(.down))
            }
        }
        for index in windowed {
            let window = uses[index].access.readWindow!
            if !cluster.isEmpty && window.lowerBound < clusterEnd {
                cluster.append(index)
                clusterEnd = max(clusterEnd, window.upperBound)
            } else {
                settle()
                cluster = [index]
                clusterEnd = window.upperBound
            }
        }
        settle()
        self.uses = uses
    }

    /// Per file, the most one use of it read into memory, over `uses` (a file read twice holds
    /// one copy at a time as far as the harness can tell); nil when a read was not measured.
    public static func bytesByFile(_ uses: [Use]) -> (bytes: Int?, files: [(path: String, bytes: Int?)]) {
        var byFile: [String: Int?] = [:]
        var order: [String] = []
        for use in uses {
            if byFile[use.path] == nil { order.append(use.path) }
            let known = byFile[use.path] ?? 0
            byFile[use.path] = use.bytesRead.flatMap { read in known.map { max($0, read) } }
        }
        let files = order.map { (path: $0, bytes: byFile[$0] ?? nil) }
        let total = files.reduce(Int?.some(0)) { sum, file in sum.flatMap { s in file.bytes.map { s + $0 } } }
        return (total, files)
    }
}

extension RunRecord {
    /// When the user first asked for something: the first `input` step's start (the end of
    /// the run when the scenario has none). What the app read before it, it read at launch or
    /// on its own: the guide's prefetching.
    public var firstInputTime: UInt64 {
        steps.first { $0.step.kind == .input }?.start ?? endTime
    }

    /// The scenario step under way at `time`, as the report names it (`input(show)`), if any.
    func stepName(at time: UInt64) -> String? {
        steps.last { $0.start <= time }.map(\.step.description)
    }
}
