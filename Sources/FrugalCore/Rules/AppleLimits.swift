/// Apple's enforced limits as a rule pack (`--rules apple-limits`): the numbers iOS's resource
/// monitors act on, and the timer rules Apple's energy guide asks for, which the guide does not print and developers meet in crash logs after
/// release. Each is judged on a run apart from the guide's audits (never scored), with the time
/// until it would trip at the measured rate and where the number comes from.
///
/// The numbers come from Apple's diagnostic reports as developers quote them on Apple's
/// Developer Forums, and from WWDC: Apple documents the mechanisms, not the numbers ("the logs
/// are intended to be self documenting", an Apple engineer on the disk writes report). A
/// device's own report may print another limit (some print 4294.97 MB of writes).
public struct AppleLimit: Codable, Sendable, Equatable {
    /// Stable id (`apple.wakeups`).
    public var id: String
    public var title: String
    /// The limit in the words of the report that enforces it.
    public var limit: String
    /// The amount the window may hold (45,000 wakeups; 2^30 bytes, which the report prints as
    /// 1073.74 MB; 48 CPU-seconds;
    /// 250 ms for the shortest hang bucket).
    public var threshold: Double
    public var unit: String
    /// The window the amount is counted over, seconds.
    public var windowSeconds: Double
    /// What the system does when it trips.
    public var action: String
    /// What Frugal measures for it on Linux, and how that differs from what iOS counts.
    public var measures: String
    /// Where the number comes from: the kind of source (diagnostic report, Apple's forums, WWDC)
    /// and where it can be read.
    public var source: String

    public init(id: String, title: String, limit: String, threshold: Double, unit: String, windowSeconds: Double,
                action: String, measures: String, source: String) {
        self.id = id
        self.title = title
        self.limit = limit
        self.threshold = threshold
        self.unit = unit
        self.windowSeconds = windowSeconds
        self.action = action
        self.measures = measures
        self.source = source
    }
}

/// One limit judged on one run.
public struct AppleLimitResult: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        /// The run itself went over the limit.
        case exceeded
        /// The measured rate is over the limit's: it would trip after `secondsToLimit` if kept up.
        case wouldTrip = "would-trip"
        /// At the measured rate it never trips within the window.
        case within
        /// Nothing to judge (no background time for the CPU limit).
        case notApplicable = "not-applicable"
        /// The number could not be measured on this run.
        case unavailable
    }

    public var id: String
    public var status: Status
    /// The measured amount (wakeups in the busiest window, bytes written, CPU-seconds in the
    /// busiest background window, the longest hang in ms).
    public var measured: Double?
    public var unit: String?
    /// The measured rate (wakeups/s, bytes/s, CPU-seconds per second), when the limit is a rate.
    public var rate: Double?
    /// The amount projected over the limit's window at that rate (24 h of writes; 300 s of wakeups).
    public var projected: Double?
    /// Seconds until the limit trips at the measured rate; nil when it never does (or cannot be said).
    public var secondsToLimit: Double?
    /// Hangs by bucket (≥ 250, 500, 1000, 2000 ms), for the hang limit.
    public var buckets: [HangBucket]?
    /// The result in a sentence (`would hit the disk writes report after 54 min: …`).
    public var summary: String
    /// The metric's source and the limit's source.
    public var measuredSource: String?
    public var source: String

    public init(id: String, status: Status, measured: Double? = nil, unit: String? = nil, rate: Double? = nil,
                projected: Double? = nil, secondsToLimit: Double? = nil, buckets: [HangBucket]? = nil,
                summary: String, measuredSource: String? = nil, source: String) {
        self.id = id
        self.status = status
        self.measured = measured
        self.unit = unit
        self.rate = rate
        self.projected = projected
        self.secondsToLimit = secondsToLimit
        self.buckets = buckets
        self.summary = summary
        self.measuredSource = measuredSource
        self.source = source
    }
}

/// Hangs at or over one threshold.
public struct HangBucket: Codable, Sendable, Equatable {
    public var thresholdMs: Double
    public var count: Int
    /// When the first of them began, seconds since exec.
    public var firstAt: Double?

    public init(thresholdMs: Double, count: Int, firstAt: Double?) {
        self.thresholdMs = thresholdMs
        self.count = count
        self.firstAt = firstAt
    }
}

/// The pack.
public enum AppleLimits {
    /// The name `--rules` takes.
    public static let packName = "apple-limits"

    public static let wakeups = AppleLimit(
        id: "apple.wakeups", title: "Wakeups resource report",
        limit: "150 wakeups per second over 300 seconds (45,000 wakeups in the window)",
        threshold: 45_000, unit: "wakeups", windowSeconds: 300,
        action: "a wakeups diagnostic report (EXC_RESOURCE, WAKEUPS); the process is not killed",
        measures: "voluntary context switches of all the app's threads (the activity lane, /proc/<pid>/task/*/status) in the busiest 300 s window, or the whole run when shorter; iOS counts interrupt wakeups in the kernel's task ledger, which a Linux thread's sleep-and-wake matches most closely",
        source: "diagnostic report text quoted on Apple's Developer Forums: \"45001 wakeups over the last 174 seconds (258 wakeups per second average), exceeding limit of 150 wakeups per second over 300 seconds\" (https://developer.apple.com/forums/thread/124180, where an Apple engineer traces it to the kernel's interrupt_wakeups)")

    public static let diskWrites = AppleLimit(
        id: "apple.disk-writes", title: "Disk writes resource report",
        limit: "1073.74 MB of file-backed memory dirtied over 86,400 seconds (12.43 KB per second)",
        threshold: 1_073_741_824, unit: "bytes", windowSeconds: 86_400,
        action: "a disk writes diagnostic report (shown in Xcode Organizer's Disk Writes pane); the process is not killed",
        measures: "write_bytes from /proc/<pid>/io (file pages the process dirtied: the same quantity as the report's \"file backed memory dirtied\"), over the run's wall time, projected to 24 h",
        source: "diagnostic report text quoted on Apple's Developer Forums: \"1073.76 MB of file backed memory dirtied over 705 seconds (1522.14 KB per second average), exceeding limit of 12.43 KB per second over 86400 seconds\" (https://developer.apple.com/forums/thread/686854; Apple's engineer there: the limit is printed in each report, some devices print 4294.97 MB); Apple's article \"Reducing disk writes\" describes the 24-hour threshold without its number")

    public static let hangs = AppleLimit(
        id: "apple.hangs", title: "Hangs (250 / 500 / 1000 / 2000 ms)",
        limit: "the main thread unresponsive for 250 ms or more is a hang; on-device hang detection reports at 250, 500, 1000 or 2000 ms",
        threshold: 250, unit: "ms", windowSeconds: 0,
        action: "a hang report (on-device hang detection, Xcode Organizer's Hangs pane); a hang of many seconds ends in the watchdog's kill",
        measures: "main-thread handlers of 250 ms or more (FrugalKit's handler records, or the harness's outside watch for a program), counted by bucket",
        source: "WWDC22 session 10082, \"Track down hangs with Xcode and on-device detection\" (https://developer.apple.com/videos/play/wwdc2022/10082/): a hang is the main thread busy or waiting for at least 250 ms. The 500/1000/2000 ms buckets are on-device detection's threshold choices as issue 25 lists them; not confirmed against a source read here")

    public static let backgroundCPU = AppleLimit(
        id: "apple.background-cpu", title: "Background CPU (cpu_resource_fatal)",
        limit: "80% CPU over 60 seconds in the background (48 CPU-seconds in the window)",
        threshold: 48, unit: "CPU-seconds", windowSeconds: 60,
        action: "the process is killed (Event: cpu usage, Action taken: Process killed; a cpu_resource_fatal report)",
        measures: "CPU time of all the app's threads (the activity lane, schedstat) while the app was in the background, in its busiest 60 s window, or the whole background stretch when shorter; percent of one core, as the report prints it",
        source: "diagnostic report text quoted on Apple's Developer Forums: \"Event: cpu usage Action taken: Process killed CPU: 48 seconds cpu time over 50 seconds (97% cpu average), exceeding limit of 80% cpu over 60 seconds\" (https://developer.apple.com/forums/thread/675166); WWDC19 session 707 names the mechanism, the CPU Monitor, that ends apps using too much CPU in the background")

    /// The pack, in the order reports list it.
    public static let all: [AppleLimit] = [wakeups, diskWrites, hangs, backgroundCPU, timerTolerance, timerNoEffect]

    /// The hang buckets, ms.
    public static let hangBuckets: [Double] = [250, 500, 1000, 2000]
}
