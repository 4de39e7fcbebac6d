extension RuleCatalogue {
    static let mainThreadSection = "Performance Tuning › Move Work off the Main Thread"

    /// Responsiveness (main thread).
    public static let responsiveness: [Rule] = [
        Rule(id: "main.no-long-blocks", category: .responsiveness, title: "No long main-thread blocks",
             guideSection: mainThreadSection,
             guideQuote: "you should never use the main thread to perform long-running or potentially unbounded tasks, such as tasks that access the network.",
             measures: "the longest the main thread kept one input waiting: from the harness sending the input to the main thread's return to idle, the handlers that ran back to back (less than 5 ms apart) added up, whether the work came as one block or several, each less the time it sat runnable waiting for a CPU (schedstat: the machine's load, not the app's work); a stretch of 250 ms or more that no input started (the launch, a timer, a notification) counts as long as it lasted. Not divided by the run's length: the same taps in a longer scenario read the same",
             unit: "ms", scoring: .logNormal(good: 50, poor: 100),
             calibration: "Recalibrated from the starting proposal's blocked ms per minute (docs/RULES.md), which judged four taps of about 130 ms of reading and decoding each as 0.57, and would have judged them better in a longer scenario. 0.5 sits at 100 ms, the limit for a person to feel that the system reacts instantaneously (Nielsen, Usability Engineering, 1993, §5.5 \"0.1 second\"; Card, Moran and Newell 1983; Google's RAIL model: respond to input within 100 ms), so synchronous work of 100 ms or more in answer to one tap fails however it is split; 0.9 sits at 50 ms, RAIL's budget for handling an input event so the whole response stays within 100 ms, and the W3C Long Tasks threshold. 20 ms of work per tap scores about 1. Apple treats a main-thread delay of 250 ms or more as a hang (Instruments, MetricKit): that is where work no input started counts.",
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
