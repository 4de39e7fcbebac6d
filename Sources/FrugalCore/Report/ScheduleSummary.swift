/// How well a suite's schedule used the machine (`report.json`'s `schedule`, additive): the
/// runs' own time against the suite's wall time. Printed at the end of every `frugal run`.
///
/// - ``utilization``: Σ run time ÷ (wall × cores). On 2 cores, 1.0 would be both cores filled
///   with runs the whole time; runs that sleep beside each other can take it past 1.
/// - ``wallOverLongest``: wall ÷ the longest run. No schedule ends before its longest run does,
///   so 1.0 is the limit; how far above it a suite ends is what the schedule costs.
public struct ScheduleSummary: Codable, Sendable, Equatable {
    /// How runs were scheduled: `demand` (`frugal run`'s default) or `jobs N`.
    public var mode: String
    public var runs: Int
    /// From the first run's start to the last run's end, as the harness saw it (set-up and
    /// reaping included), seconds.
    public var wallSeconds: Double
    public var cores: Int
    /// Σ of each run's time from its spawn to its last process reaped, seconds.
    public var runSeconds: Double
    public var longestRunSeconds: Double
    /// Σ of the scenarios' planned waits, seconds: what "at least N s" at the start counted.
    public var scenarioSeconds: Double
    /// `runSeconds / (wallSeconds × cores)`; nil when the wall time is 0.
    public var utilization: Double?
    /// `wallSeconds / longestRunSeconds`; nil when no run took time.
    public var wallOverLongest: Double?

    public init(mode: String, runs: Int, wallSeconds: Double, cores: Int, runSeconds: Double, longestRunSeconds: Double,
                scenarioSeconds: Double) {
        self.mode = mode
        self.runs = runs
        self.wallSeconds = wallSeconds
        self.cores = max(1, cores)
        self.runSeconds = runSeconds
        self.longestRunSeconds = longestRunSeconds
        self.scenarioSeconds = scenarioSeconds
        utilization = wallSeconds > 0 ? runSeconds / (wallSeconds * Double(self.cores)) : nil
        wallOverLongest = longestRunSeconds > 0 ? wallSeconds / longestRunSeconds : nil
    }

    /// The summary of `records` run in `wallSeconds` (each run's time is its record's spawn to
    /// reap, monotonic).
    public static func of(_ records: [RunRecord], mode: String, wallSeconds: Double, cores: Int,
                          scenarioSeconds: Double) -> ScheduleSummary {
        let durations = records.map { $0.endTime >= $0.startTime ? Double($0.endTime - $0.startTime) / 1e9 : 0 }
        return ScheduleSummary(mode: mode, runs: records.count, wallSeconds: wallSeconds, cores: cores,
                               runSeconds: durations.reduce(0, +), longestRunSeconds: durations.max() ?? 0,
                               scenarioSeconds: scenarioSeconds)
    }

    /// One line for the end of a suite: `schedule: 45 runs in 62 s …`.
    public var line: String {
        func seconds(_ value: Double) -> String { value < 10 ? String(format: "%.1f", value) : String(format: "%.0f", value) }
        var text = "schedule (\(mode)): \(runs) run\(runs == 1 ? "" : "s") in \(seconds(wallSeconds)) s, \(seconds(runSeconds)) s of runs on \(cores) core\(cores == 1 ? "" : "s")"
        if let utilization { text += ": Σ run time ÷ (wall × cores) \(String(format: "%.2f", utilization))" }
        if let wallOverLongest {
            text += ", wall \(String(format: "%.2f", wallOverLongest))× the longest run (\(seconds(longestRunSeconds)) s)"
        }
        return text
    }
}
