extension RuleCatalogue {
    static let mainThreadSection = "Performance Tuning › Move Work off the Main Thread"

    /// Responsiveness (main thread).
    public static let responsiveness: [Rule] = [
        Rule(id: "main.no-long-blocks", category: .responsiveness, title: "No long main-thread blocks",
             guideSection: mainThreadSection,
             guideQuote: "you should never use the main thread to perform long-running or potentially unbounded tasks, such as tasks that access the network.",
             measures: "main-thread blocking time per minute: Σ max(0, handler − 50 ms) ÷ the run's minutes, a run shorter than a minute counting as one; handlers of 250 ms or more are hangs, listed as evidence",
             unit: "ms/min", scoring: .logNormal(good: 200, poor: 600),
             calibration: "\(rulesProposal); Apple treats a main-thread delay of 250 ms or more as a hang (Instruments, MetricKit). Calibration: a run shorter than a minute counts as one minute (as for disk.avoid-frequent-writes), so 40 ms of blocking in a 3 s run reads as 40 ms/min, not 800.",
             measured: true),
        Rule(id: "main.no-waiting-on-main", category: .responsiveness, title: "No waiting on the main thread",
             guideSection: "App States and Multitasking › Concurrency and Secondary Threads",
             guideQuote: "For example, you should never wait for a network response on your app's main thread.",
             measures: "off-CPU waiting time on the main thread inside handlers", unit: "ms",
             scoring: .logNormal(good: 50, poor: 250),
             calibration: "Recalibrated from the starting proposal's 16 / 100 ms (docs/RULES.md), which failed a mapped-file read of 40 ms (page faults) as if it were the network wait the guide warns about. Here 0.9 sits at 50 ms (the W3C Long Tasks API's and Lighthouse's long-task threshold) and 0.5 at 250 ms, where Apple's Instruments and MetricKit call a main-thread delay a hang: waiting for a network response crosses it, a few page faults do not.",
             measured: true),
    ]
}
