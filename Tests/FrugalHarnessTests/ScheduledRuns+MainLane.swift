/// The built-in workloads the main test lane's classes judge under their default scenarios
/// (`DiskWorkloadPairTests`, `LifecyclePairTests`, `WorkloadPairTests`,
/// `MemoryWorkloadPairTests`, `ThreadAttributionTests`, and `MemoryPressureTests`' gallery
/// pair), run once for all of them as one `frugal run` of these workloads is scheduled: the
/// light and gated runs of one class sleep beside the exclusive runs of another, instead of each
/// class waiting out its own schedule. Each class ran its own before, one after another:
/// 29 + 17 + 14 + 17 + 11 s (and MemoryPressureTests ran the gallery pair a second time), where
/// the exclusive runs of all of them, one after another, are the limit. Each run is judged as it
/// was: the scheduler's promise, which `frugal run` relies on for the same workloads, is that
/// light neighbours move no verdict, and the exclusive runs (disk writers, memory pressure,
/// background work) still have the machine to themselves; the thread apps are light
/// (`WorkloadCatalogue.lightWorkloads`) but for the URLSession pair, alone until its idle. The
/// first test to ask runs them all, so a single one of these classes run alone (`--filter`)
/// takes the whole schedule's time, about a minute.
extension ScheduledRuns {
    static let mainLaneRuns = ScheduledRuns([
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
        // ThreadAttributionTests (short-idle): six light, the URLSession pair alone until its idle
        "threads.global-queue-once", "threads.global-queue-timer", "threads.detached-task-once",
        "threads.detached-task-timer", "threads.urlsession-once", "threads.urlsession-timer",
        "threads.serial-queue-timer", "threads.global-queue-foundation-timer",
    ])
}
