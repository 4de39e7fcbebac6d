import FrugalCore

extension WorkloadCatalogue {
    /// Every good/bad pair of the default suite, with the audit the bad one is built to fail:
    /// what `frugal verdicts` and the pair tests judge the report's verdicts by.
    public static let pairs: [WorkloadPair] = [
        WorkloadPair(bad: "news.polling", good: "news.coalesced", audit: "power.avoid-polling"),
        WorkloadPair(bad: "launch.blocking", good: "launch.deferred", audit: "main.no-long-blocks"),
        WorkloadPair(bad: "notes.loses-edits", good: "notes.saves-on-background", audit: "lifecycle.save-state"),
        WorkloadPair(bad: "timer.keeps-running-inactive", good: "timer.pauses-inactive", audit: "lifecycle.quiesce-when-inactive"),
        WorkloadPair(bad: "upload.leaks-task", good: "upload.ends-task", audit: "lifecycle.end-background-tasks"),
        WorkloadPair(bad: "server.keeps-listening", good: "server.closes-listener", audit: "lifecycle.close-listeners"),
        WorkloadPair(bad: "resume.heavy", good: "resume.light", audit: "lifecycle.resume-fast"),
        WorkloadPair(bad: "background.keeps-working", good: "background.rests", audit: "lifecycle.minimal-background-work"),
        WorkloadPair(bad: "feed.sync-on-main", good: "feed.async", audit: "main.no-waiting-on-main"),
        WorkloadPair(bad: "notes.rewrite-whole", good: "notes.append-delta", audit: "disk.write-changed-portions"),
        WorkloadPair(bad: "prefs.save-every-change", good: "prefs.save-coalesced", audit: "disk.avoid-frequent-writes"),
        WorkloadPair(bad: "downloads.in-documents", good: "downloads.in-caches", audit: "disk.backup-placement"),
        WorkloadPair(bad: "export.leaves-tmp", good: "export.cleans-tmp", audit: "disk.clean-tmp"),
        WorkloadPair(bad: "gallery.hoards", good: "gallery.purges", audit: "memory.respond-to-warnings"),
        WorkloadPair(bad: "atlas.loads-whole", good: "atlas.maps", audit: "memory.map-large-resources"),
        WorkloadPair(bad: "startup.preloads", good: "startup.lazy", audit: "memory.lazy-resources"),
        WorkloadPair(bad: "session.leaks", good: "session.steady", audit: "memory.no-leaks"),
        WorkloadPair(bad: "sync.trickle", good: "sync.burst", audit: "network.transmit-in-bursts"),
        WorkloadPair(bad: "feed.polls-server", good: "feed.on-demand", audit: "network.no-server-polling"),
        WorkloadPair(bad: "upload.sequential", good: "upload.batched", audit: "network.enqueue-together"),
        WorkloadPair(bad: "api.verbose-json", good: "api.compact", audit: "network.compact-transfers"),
        WorkloadPair(bad: "sync.fragile", good: "sync.resilient", audit: "network.handle-failures"),
    ]

    /// Good workloads of the default suite without a twin: ground truths.
    public static let goodWithoutTwin = ["idle"]
}
