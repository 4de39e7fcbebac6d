extension WorkloadCatalogue {
    /// Built-in workloads judged on timing only in the steps an audit times (launch, inputs,
    /// terminate, foreground), and asleep or nearly so between them: `frugal run`'s scheduler
    /// holds the machine for those steps alone (`RunDemand.gated`), and lets other runs sleep,
    /// and other gated runs wait, beside them. `feed.*` wait on a slow server (on the main thread
    /// or a queue) within each refresh; `upload.*-task` upload on a thread that sleeps on the
    /// network in the background; `startup.*` load their resources at launch or in the `open`
    /// input; `session.*` allocate in each `cycle` input; `notes.rewrite-whole` and
    /// `prefs.save-every-change` write and fsync within each edit; `launch.blocking` works
    /// inside its launch, `resume.heavy` inside its resume. Not here: workloads that use the CPU
    /// or the disk between their steps — `launch.deferred` and `resume.light` (a rebuild on a
    /// background thread after the step), `background.*` (indexing in the background),
    /// `downloads.*` and `export.*` (MBs written and fsynced off the main thread after the
    /// input) — and workloads whose behaviour follows the spacing of their inputs, which a wait
    /// for the gate stretches: `notes.append-delta` and `prefs.save-coalesced` save 1 s after the
    /// last edit, and an edit held 0.75 s at the gate made them save twice as often (seen with 8
    /// gated runs at once at load 10: 4–5 writes in the minute, a false alarm). Memory pressure
    /// needs the machine whatever the workload. A workload not listed runs alone.
    public static let stepGatedWorkloads: Set<String> = [
        "feed.sync-on-main", "feed.async",
        "upload.leaks-task", "upload.ends-task",
        "startup.preloads", "startup.lazy",
        "session.leaks", "session.steady",
        "notes.rewrite-whole", "prefs.save-every-change",
        "launch.blocking", "resume.heavy",
    ]
}
