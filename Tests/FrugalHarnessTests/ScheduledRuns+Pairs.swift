/// The built-in pairs the main test lane's pair classes judge (`DiskWorkloadPairTests`,
/// `LifecyclePairTests`, `WorkloadPairTests`, `MemoryWorkloadPairTests`, and
/// `MemoryPressureTests`' gallery pair), run once for all of them as one `frugal run` of these
/// workloads is scheduled: the light and gated runs of one class sleep beside the exclusive runs
/// of another, instead of each class waiting out its own schedule. Each class ran its own
/// before, one after another: 29 + 17 + 14 + 17 s (and MemoryPressureTests ran the gallery pair
/// a second time), where the exclusive runs of all of them, one after another, are the limit.
/// Each run is judged as it was: the scheduler's promise, which `frugal run`'s default suite
/// relies on for the same workloads, is that light neighbours move no verdict, and the
/// exclusive runs (disk writers, memory pressure, background work) still have the machine to
/// themselves. `ThreadAttributionTests` keeps its own: its wakeup bound allows one stray wakeup,
/// seen once beside its own runs alone. The first test to ask runs them all, so a single one
/// of these classes run alone (`--filter`) takes the whole schedule's time, about a minute.
extension ScheduledRuns {
    static let builtInPairs = ScheduledRuns([
        // DiskWorkloadPairTests (disk-session)
        "notes.rewrite-whole", "notes.append-delta", "prefs.save-every-change", "prefs.save-coalesced",
        "downloads.in-documents", "downloads.in-caches", "export.leaves-tmp", "export.cleans-tmp",
        // LifecyclePairTests
        "notes.loses-edits", "notes.saves-on-background", "timer.keeps-running-inactive", "timer.pauses-inactive",
        "upload.leaks-task", "upload.ends-task", "server.keeps-listening", "server.closes-listener",
        "resume.heavy", "resume.light", "background.keeps-working", "background.rests", "feed.sync-on-main", "feed.async",
        // WorkloadPairTests (standard)
        "news.polling", "news.coalesced", "launch.blocking", "launch.deferred",
        // MemoryWorkloadPairTests, and the gallery pair of MemoryPressureTests
        "atlas.loads-whole", "atlas.maps", "startup.preloads", "startup.lazy", "session.leaks", "session.steady",
        "gallery.hoards", "gallery.purges",
    ])
}
