extension WorkloadCatalogue {
    /// Built-in workloads that sleep most of their run and whose pairs are judged on counts
    /// (wakeups, bytes, transfers, files, lost edits, open sockets), so they may run side by side
    /// (`frugal run`'s scheduler). Every other workload runs alone: `launch.*` and `feed.*` are
    /// judged on launch time and main-thread waiting, `upload.leaks-task`/`ends-task` on
    /// background time, `notes.rewrite-whole` rewrites 4 MiB per edit (CPU and fsync bound), and
    /// memory-pressure scenarios need the machine whatever the workload. A workload added
    /// without an entry here runs alone: slower, never wrong.
    public static let lightWorkloads: Set<String> = [
        "idle",
        "news.polling", "news.coalesced",
        "timer.keeps-running-inactive", "timer.pauses-inactive",
        "notes.loses-edits", "notes.saves-on-background",
        "server.keeps-listening", "server.closes-listener",
        "prefs.save-every-change", "prefs.save-coalesced",
        "downloads.in-documents", "downloads.in-caches",
        "export.leaves-tmp", "export.cleans-tmp",
        "sync.trickle", "sync.burst",
        "feed.polls-server", "feed.on-demand",
        "upload.sequential", "upload.batched",
        "api.verbose-json", "api.compact",
        "sync.fragile", "sync.resilient",
    ]
}
