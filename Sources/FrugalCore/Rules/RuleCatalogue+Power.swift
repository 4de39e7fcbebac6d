extension RuleCatalogue {
    static let reducePowerSection = "Performance Tuning › Reduce Power Consumption"

    /// Power (CPU).
    public static let power: [Rule] = [
        Rule(id: "power.avoid-polling", category: .power, title: "Avoid polling when idle",
             guideSection: reducePowerSection,
             guideQuote: "Avoid doing work that requires polling. Polling prevents the CPU from going to sleep. Instead of polling, use the NSRunLoop or NSTimer classes to schedule work as needed.",
             measures: "wakeups per second of the workload's threads while idle, read from /proc outside the workload, less the platform's (libdispatch's manager thread, shown by its stack, up to its Linux-only 1 Hz pool monitor: docs/THREADS.md): the wait steps, less the slices (between 0.2 s samples) when the app had a network request in flight (to its last byte and the hand-off of its result, one sample later), was reading or writing a file, was drawing frames while active (FrugalKit's frame timer; for any app that can draw, its main thread waking at 10/s or more for 0.5 s while active: only that thread's wakeups left out; a black-box program can draw only when its environment names a display server, DISPLAY or WAYLAND_DISPLAY), was answering a memory warning the harness delivered, was suspended (frozen: neither idle nor in use), was computing (a fifth of a CPU or more), or was finishing what an input started, across waits, inputs, marks and interruptions only (from the input to the first write to storage or request after it, or a run of wakeups after it followed by quiet at least as long and at least 2.5 s: a debounce's cancelled timers, which still fire once each, are the input's work, as the guide asks: \"coalesce changes whenever possible\"); not applicable under 1 s of such idle time, or under 2.5 s (where one wakeup reads past the poor control point on its own) with no more wakeups than a rate at the poor point makes by chance (one-sided Poisson, 5 %)",
             unit: "1/s", scoring: .logNormal(good: 0.1, poor: 0.4),
             calibration: "Recalibrated twice. The starting proposal's 0.5 / 5 (docs/RULES.md) scored a 1 Hz polling timer, the very pattern the guide rules out, as 'average' (0.81); 0.1 / 1 then put it exactly on the line (0.5), so a 1 Hz poller flipped between bands across repetitions (measured 0.49–0.54). Now 0.9 sits at one wakeup per 10 s, the cycle below which ARO stops calling transfers periodic, and 0.5 at one per 2.5 s, so that any steady wake at 1 Hz or faster is clearly failing: a 1 s timer measures 0.85–1.0 wakeups/s here (its ticks fall either side of a sample), which scores 0.20–0.25. Frugal's assumption; Apple publishes only the 150/s kill limit. What is idle follows the guide's own contrast (\"Instead of polling, use the NSRunLoop or NSTimer classes to schedule work as needed\"): work the app has in flight, or frames it draws while in use, is not polling, and each is judged by its own audit. The guide expects an active app to keep its display going and a resigning one to stop (\"upon reactivation, your app should restart timers, resume dispatch queues, and throttle up OpenGL ES frame rates again\"; on resigning, \"Stop timers and other periodic tasks\"): a frame timer while active and in the foreground is the app in use. Drawing without FrugalKit's frame timer (a Foundation Timer redrawing a clock at 25 Hz, once charged as 24.8 wakeups/s of polling) is read from outside: the main thread of an active app waking at 10/s or more, the lowest rate the platform's displays animate at (\"from 10Hz to 120Hz on supported iPhone devices\", Apple, Optimizing iPhone and iPad apps to support ProMotion displays), in every sample slice for 0.5 s (five frames at that rate, which a timer slower than a frame rate with the hand-off of its result cannot make). Only that thread's wakeups are left out: a poller on another thread beside the animation, a main-thread timer slower than 10 Hz, and a timer kept running while inactive are still charged (the last by lifecycle.quiesce-when-inactive). How fast to draw is power.frame-rate's question.",
             measured: true),
        Rule(id: "power.coalesce-work", category: .power, title: "Coalesce work",
             guideSection: reducePowerSection,
             guideQuote: "Coalesce work whenever possible to maximize idle time.",
             measures: "wakeups per CPU-second during active phases", unit: "1/CPU-s",
             scoring: .logNormal(good: 20, poor: 200), calibration: rulesProposal, measured: false),
        Rule(id: "power.cpu-budget", category: .power, title: "Stay within a CPU budget",
             guideSection: reducePowerSection,
             guideQuote: "The goal of your optimizations should be to do the most work you can in the most efficient way possible.",
             measures: "peak CPU utilisation over any 60 s window", unit: "%",
             scoring: .logNormal(good: 20, poor: 50), calibration: "\(rulesProposal); Apple's limit is 80% over 60 s (\(appleLimits))", measured: false),
        Rule(id: "power.frame-rate", category: .power, title: "Do not draw faster than needed",
             guideSection: reducePowerSection,
             guideQuote: "Do not draw to the screen faster than is needed.",
             measures: "frames drawn per second with no content change", unit: "1/s",
             scoring: .logNormal(good: 1, poor: 15), calibration: rulesProposal, measured: false),
    ]
}
