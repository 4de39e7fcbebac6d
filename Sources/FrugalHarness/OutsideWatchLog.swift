import Foundation
import FrugalCore

/// A black-box program's main-thread watch from outside (`OutsideHangWatcher`): the current
/// process's watcher and what the watchers of the run's ended processes saw. One owner for both,
/// so a watcher is started once per process, ended with its process's exit time, and its result
/// kept exactly once. A `RunSession` of a black box holds one (`outsideWatch`).
struct OutsideWatchLog {
    /// The current process's watcher; nil between a process's end and the next spawn, and for an app.
    private(set) var current: OutsideHangWatcher?
    /// What each ended process's watcher saw, in order.
    private(set) var finished: [OutsideWatchResult] = []

    /// 25 ms: a tenth of the hang limit, so a 250 ms stretch is seen to within 10%.
    static let interval = 0.025

    /// Watches the newly spawned `root`'s main thread, among the run's cgroup's members (without
    /// one, its process group's).
    mutating func watch(root: pid_t, group: RunCgroup?) {
        start(OutsideHangWatcher(root: root, members: { group?.pids ?? ProcessGroupScan.members(ofGroup: root) }, interval: Self.interval))
    }

    /// Watches a newly spawned process; the last one's watcher must have been ended.
    mutating func start(_ watcher: OutsideHangWatcher) {
        precondition(current == nil, "an outside watch started over one not ended")
        current = watcher
    }

    /// Ends the current watcher at its process's exit and keeps what it saw.
    mutating func end(exitTime: UInt64) {
        guard let watcher = current else { return }
        watcher.stop(exitTime: exitTime)
        finished.append(watcher.result)
        current = nil
    }

    /// The run's facts from every ended watcher; nil when none ran (an app).
    func facts(intervalSeconds: Double = interval) -> OutsideWatchFacts? {
        guard !finished.isEmpty else { return nil }
        return OutsideWatchFacts(hangs: finished.flatMap(\.hangs),
                                 longestBusyMs: Double(finished.map(\.longestBusyNanoseconds).max() ?? 0) / 1e6,
                                 samples: finished.reduce(0) { $0 + $1.samples },
                                 unreadable: Array(Set(finished.flatMap(\.unreadable))).sorted(),
                                 intervalSeconds: intervalSeconds,
                                 longestWait: finished.compactMap(\.longestWait).max { $0.milliseconds < $1.milliseconds },
                                 mainThreads: finished.flatMap(\.mainThreads),
                                 startups: finished.compactMap(\.startup))
    }
}
