extension WorkloadCatalogue {
    /// Built-in workloads judged on timing only in the steps an audit times (launch, inputs,
    /// terminate, home, foreground), and asleep between them: `frugal run`'s scheduler holds the
    /// machine for those steps alone (`RunDemand.gated`), and lets other runs sleep, and other
    /// gated runs wait, beside them. Both halves of a pair, so the two are measured alike:
    /// `feed.*` wait on a slow server (on the main thread or a queue) within each refresh;
    /// `upload.*-task` upload on a thread that sleeps on the network during `home`, which the
    /// step waits out; `startup.*` load their resources at launch or in the `open` input;
    /// `session.*` allocate in each `cycle` input. Not here: workloads that work between their
    /// steps — `launch.deferred` and `resume.light` (a background rebuild after the step),
    /// `background.*` (indexing in the background), `notes.append-delta` and
    /// `prefs.save-coalesced` (a save 1 s after the last edit), `downloads.*` and `export.*`
    /// (MBs written off the main thread after the input) — and their pair partners; memory
    /// pressure needs the machine whatever the workload. A workload not listed runs alone.
    public static let stepGatedWorkloads: Set<String> = [
        "feed.sync-on-main", "feed.async",
        "upload.leaks-task", "upload.ends-task",
        "startup.preloads", "startup.lazy",
        "session.leaks", "session.steady",
    ]
}
