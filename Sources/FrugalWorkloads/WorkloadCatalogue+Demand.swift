extension WorkloadCatalogue {
    /// Built-in workloads that sleep most of their run and whose pairs are judged on counts
    /// (wakeups, bytes, transfers, files, lost edits, open sockets), so they may run side by side
    /// (`frugal run`'s scheduler). Every other workload runs alone: `launch.*` and `feed.*` are
    /// judged on launch time and main-thread waiting, `upload.leaks-task`/`ends-task` on
    /// background time, `notes.*`, `downloads.*` and `export.*` write MBs on input (a burst of
    /// CPU and fsync that would stretch a neighbour's launch, and theirs is judged too: every
    /// run's launch time is an audit), `prefs.save-every-change` fsyncs on the main thread, so
    /// its main-thread waiting (an audit) is as long as the disk is busy (31–33 ms alone and
    /// 36–48 ms beside the rest of the suite; `prefs.save-coalesced`, its twin, saves on a queue),
    /// and memory-pressure scenarios need the machine whatever the workload. A workload added
    /// without an entry here runs alone: slower, never wrong.
    public static let lightWorkloads: Set<String> = [
        "idle",
        "news.polling", "news.coalesced",
        "timer.keeps-running-inactive", "timer.pauses-inactive",
        "notes.loses-edits", "notes.saves-on-background",
        "server.keeps-listening", "server.closes-listener",
        "sync.trickle", "sync.burst",
        "feed.polls-server", "feed.on-demand",
        "upload.sequential", "upload.batched",
        "api.verbose-json", "api.compact",
        "sync.fragile", "sync.resilient",
        "threads.global-queue-once", "threads.global-queue-timer", "threads.detached-task-once", "threads.detached-task-timer",
        "threads.serial-queue-timer",
        "threads.global-queue-foundation-timer",
    ]
}
