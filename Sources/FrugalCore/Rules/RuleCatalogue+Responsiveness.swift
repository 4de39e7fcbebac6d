extension RuleCatalogue {
    static let mainThreadSection = "Performance Tuning › Move Work off the Main Thread"

    /// Responsiveness (main thread).
    public static let responsiveness: [Rule] = [
        Rule(id: "main.no-long-blocks", category: .responsiveness, title: "No long main-thread blocks",
             guideSection: mainThreadSection,
             guideQuote: "you should never use the main thread to perform long-running or potentially unbounded tasks, such as tasks that access the network.",
             measures: "main-thread blocking time per minute: Σ max(0, handler − 50 ms); handlers of 250 ms or more are hangs, listed as evidence",
             unit: "ms/min", scoring: .logNormal(good: 200, poor: 600),
             calibration: "\(rulesProposal); Apple treats a main-thread delay of 250 ms or more as a hang (Instruments, MetricKit)",
             measured: true),
        Rule(id: "main.no-waiting-on-main", category: .responsiveness, title: "No waiting on the main thread",
             guideSection: "App States and Multitasking › Concurrency and Secondary Threads",
             guideQuote: "For example, you should never wait for a network response on your app's main thread.",
             measures: "off-CPU waiting time on the main thread inside handlers", unit: "ms",
             scoring: .logNormal(good: 16, poor: 100), calibration: rulesProposal, measured: true),
    ]
}
