/// `disk.no-cache-files` from the kernel's view (``KernelFileActivity``): cache files any process
/// wrote — a FrugalKit app, one saving with Foundation, a program writing `$XDG_CACHE_HOME` (the
/// harness points it at `Library/Caches`) — with FrugalKit's journal as detail only: the paths the
/// app declared as cache data wherever it put them, and the exact time of a write it journaled.
extension DiskActivity {
    /// How long after a write's close the harness may read its event: the watcher's thread wakes
    /// on the inotify descriptor at once, then diffs the file against its kept copy (up to
    /// `largestKeptFile`, 64 MiB, read from the page cache). A write read this long after a
    /// `didEnterBackground` handler ended is not counted as the handler's. Measured: over the
    /// built-in suite at load 8–15 on 2 cores, 65 writes FrugalKit journaled were read by the
    /// watcher a median 7 ms, a 95th percentile 99 ms and at most 210 ms after the journal's end;
    /// half a second is past that worst case by more than twice.
    public static let watcherReadLagNanoseconds: UInt64 = 500_000_000

    /// Whether a write the kernel showed counts as made while the app was quitting: at or after
    /// `willTerminate` began (for a program, the `terminate` step: its SIGTERM), or in a
    /// `didEnterBackground` handler. The time is the journal's start of the same write when the
    /// app journaled it (the latest write of that path that ended by the kernel's read), else the
    /// kernel's read, with the watcher's lag allowed after a handler's end.
    public func isAtTermination(_ change: FileChange, programTermination: UInt64? = nil) -> Bool {
        if let journaled = journal.last(where: { $0.path == change.path && $0.end <= change.time && $0.operation.writesContent }),
           change.time - journaled.end <= Self.watcherReadLagNanoseconds {
            return isAtTermination(journaled)
        }
        if let start = terminationStart ?? programTermination, change.time >= start { return true }
        return backgroundTransitions.contains { $0.lowerBound <= change.time && change.time <= $0.upperBound + Self.watcherReadLagNanoseconds }
    }

    /// Cache writes the kernel showed, made before the app began to quit: writes into
    /// `Library/Caches` (a new file's first write there left out: the guide puts "downloadable
    /// content" there, so storing it is placement, not a cache file rewritten) and writes to any
    /// path the app declared as cache data to FrugalKit. Nil without the kernel's view.
    public func kernelCacheWritesOutsideTermination(programTermination: UInt64? = nil) -> [FileChange]? {
        guard let kernel else { return nil }
        let declaredCache = Set(journal.filter { $0.dataClass == .cache }.map(\.path))
        return kernel.writes.filter { change in
            let cache = change.location == .caches || declaredCache.contains(change.path)
            let firstStore = change.location == .caches && !change.existed
            return cache && !firstStore && !isAtTermination(change, programTermination: programTermination)
        }
    }
}

extension RunAnalysis {
    /// A black-box program's quitting: the start of its `terminate` step (the harness's SIGTERM).
    /// Nil for an app (its `willTerminate` handler says when).
    public var programTerminationStart: UInt64? {
        guard record.blackBox else { return nil }
        return record.steps.first { $0.step.kind == .terminate }?.start
    }
}
