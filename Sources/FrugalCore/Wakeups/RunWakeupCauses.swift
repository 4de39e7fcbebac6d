import Foundation

/// A run's wakeups by cause, for the report: the top causes of its idle wakeups (the slices
/// `power.avoid-polling` judges), each with its function and share, and how many of all its
/// wakeups the trace named a function for.
public struct RunWakeupCauses: Codable, Sendable, Equatable {
    /// Where the causes came from (`WakeupAttributor.source`).
    public var source: String
    /// Why the run's wakeups could not be traced; the other fields are then empty.
    public var unavailable: String?
    /// `idle` when the top causes are of the idle slices' wakeups; `run` when the run had no
    /// idle slice and they are of all its wakeups.
    public var scope: String
    /// Wakeups traced over the whole run.
    public var traced: Int
    /// Of those, the ones whose cause names a function.
    public var attributed: Int
    /// `attributed / traced`; nil with no wakeup.
    public var attributedShare: Double?
    /// Wakeups in the scope (idle slices, or the run).
    public var scopeWakeups: Int
    /// The top causes in the scope, most first (at most `limit`).
    public var top: [WakeupCauseShare]
    /// Samples the kernel dropped (the tracer's buffer was full): some wakeups are missing.
    public var lostSamples: UInt64
    /// CPU seconds the harness spent tracing this run (`WakeupAttribution.tracerCPUSeconds`).
    public var tracerCPUSeconds: Double?

    /// Causes kept in the report.
    public static let limit = 8

    public init(source: String, unavailable: String? = nil, scope: String = "run", traced: Int = 0, attributed: Int = 0,
                scopeWakeups: Int = 0, top: [WakeupCauseShare] = [], lostSamples: UInt64 = 0) {
        self.source = source
        self.unavailable = unavailable
        self.scope = scope
        self.traced = traced
        self.attributed = attributed
        self.attributedShare = traced > 0 ? Double(attributed) / Double(traced) : nil
        self.scopeWakeups = scopeWakeups
        self.top = top
        self.lostSamples = lostSamples
    }

    /// The causes of `attribution`'s wakeups, the top ones over `idleSlices` (monotonic ns
    /// intervals) when there are any; `threadNames` names the threads in each row.
    public init(_ attribution: WakeupAttribution, idleSlices: [(start: UInt64, end: UInt64)], threadNames: [Int32: String] = [:]) {
        if let reason = attribution.unavailable {
            self.init(source: attribution.source, unavailable: reason)
            return
        }
        let traced = attribution.wakeups.count
        let attributed = attribution.wakeups.filter { attribution.causes[$0.cause].symbol != nil }.count
        let slices = idleSlices.sorted { $0.start < $1.start }
        /// Whether `time` falls in a slice (binary search: a long run has many of both).
        func idle(_ time: UInt64) -> Bool {
            var low = 0, high = slices.count
            while low < high {
                let middle = (low + high) / 2
                if slices[middle].start <= time { low = middle + 1 } else { high = middle }
            }
            return low > 0 && time <= slices[low - 1].end
        }
        let scoped = slices.isEmpty ? attribution.wakeups : attribution.wakeups.filter { idle($0.time) }
        // Grouped by function: a timer's tick and the pool thread its handler wakes are one
        // cause of two kinds, and its share is theirs together.
        struct Group { var count = 0; var byCause: [Int: Int] = [:]; var threads: Set<Int32> = []; var first = Int.max }
        var groups: [String: Group] = [:]
        for (position, wakeup) in scoped.enumerated() {
            let cause = attribution.causes[wakeup.cause]
            // Unnamed causes stay apart by kind: nothing says they are one.
            let key = cause.symbol.map { "\(cause.module ?? "")\u{0}\($0)" } ?? "\u{1}\(cause.kind.rawValue)"
            groups[key, default: Group()].count += 1
            groups[key]!.byCause[wakeup.cause, default: 0] += 1
            groups[key]!.threads.insert(wakeup.tid)
            groups[key]!.first = min(groups[key]!.first, position)
        }
        let top = groups.values.sorted { ($1.count, $0.first) < ($0.count, $1.first) }.prefix(Self.limit).map { group in
            // The group's most frequent cause speaks for it; every kind is counted.
            let main = group.byCause.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
            var kinds: [String: Int] = [:]
            for (index, count) in group.byCause { kinds[attribution.causes[index].kind.rawValue, default: 0] += count }
            let names = group.threads.sorted().map { tid in threadNames[tid].map { "\($0) (\(tid))" } ?? String(tid) }
            return WakeupCauseShare(cause: attribution.causes[main], count: group.count, share: Double(group.count) / Double(max(1, scoped.count)),
                                    threads: names, kinds: kinds)
        }
        self.init(source: attribution.source, scope: slices.isEmpty ? "run" : "idle", traced: traced, attributed: attributed,
                  scopeWakeups: scoped.count, top: Array(top), lostSamples: attribution.lostSamples)
        tracerCPUSeconds = attribution.tracerCPUSeconds
    }

    /// The top cause in words, for an audit's evidence: "timer: closure #1 in … (frugal-workload-host), 48% of 120 idle wakeups".
    public var topCauseText: String? {
        guard let first = top.first else { return nil }
        let percent = Int(saturating: first.share * 100).map(String.init) ?? "–"
        let kinds = first.kinds.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key).joined(separator: " + ")
        return "\(kinds): \(first.cause.symbol ?? "no named frame")"
            + (first.cause.module.map { " (\($0))" } ?? "") + (first.cause.handler.map { ", handler \($0)" } ?? "") + ", \(percent)% of \(scopeWakeups) \(scope == "idle" ? "idle " : "")wakeups"
    }
}

/// One function's part of a run's wakeups (`cause` is its most frequent cause).
public struct WakeupCauseShare: Codable, Sendable, Equatable {
    public var cause: WakeupCause
    public var count: Int
    /// Of the scope's wakeups, in [0, 1].
    public var share: Double
    /// The threads it woke: `name (tid)`.
    public var threads: [String]
    /// Its wakeups by kind (`timer`, `another thread`): one function can wake threads in
    /// several ways (a timer's tick, and the pool thread its handler queues work on).
    public var kinds: [String: Int]

    public init(cause: WakeupCause, count: Int, share: Double, threads: [String], kinds: [String: Int] = [:]) {
        (self.cause, self.count, self.share, self.threads) = (cause, count, share, threads)
        self.kinds = kinds.isEmpty ? [cause.kind.rawValue: count] : kinds
    }
}

extension RunAnalysis {
    /// The run's wakeups by cause over its idle slices; nil when the harness did not trace them
    /// (a record made before the tracer, or a run that never asked).
    public var wakeupCauses: RunWakeupCauses? {
        guard let attribution = record.wakeups else { return nil }
        let slices = idlePhases.isEmpty ? [] : idleAccounts.flatMap(\.idleSlices).map { (start: $0.start, end: $0.end) }
        var names: [Int32: String] = [:]
        for sample in record.samples {
            for thread in sample.threads where names[thread.tid] == nil { names[thread.tid] = thread.name }
        }
        let handlers = record.events.compactMap { event -> (start: UInt64, name: String)? in
            if case .handler(let handler) = event.body { return (handler.start, handler.name) }
            return nil
        }
        return RunWakeupCauses(attribution.namingHandlers(handlers), idleSlices: slices, threadNames: names)
    }
}
