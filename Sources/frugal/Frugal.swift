import ArgumentParser

/// `frugal`: runs app workloads through their life, counts what they cost, and scores them
/// against the App Programming Guide for iOS.
struct Frugal: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "frugal",
        abstract: "Profile app workloads for power, disk, memory, network and responsiveness, and score them against Apple's App Programming Guide for iOS.",
        discussion: """
        Frugal runs each workload as a real process through a scenario (launch, input, idle, terminate), \
        counts what it costs through PAPI and /proc without waking it, and writes a scored report. \
        Every number names its source; a counter that cannot be read here is reported as unavailable.

        Exit codes: 0 success; 1 bad input; 2 an error-level assertion failed or a significant \
        regression was found; 3 the harness itself failed; 4 a comparison (compare, ab, bisect) was \
        inconclusive: a gating value too noisy to tell at its threshold; 130/143 interrupted by SIGINT/SIGTERM \
        (the report holds the runs that finished; docs/robustness.md).
        """,
        version: version,
        // Each subcommand names itself (`commandName`): a name derived from the type is
        // `String(describing:)` through a Mirror, which costs a scan of the process's protocol
        // conformances per subcommand at every start (~2.4 ms of 18 ms for `frugal --version`,
        // perf record, release build).
        subcommands: [Run.self, Record.self, Compare.self, AB.self, Calibrate.self, Bisect.self, Merge.self, Doctor.self, List.self, Rules.self, RenderReport.self, Reaudit.self, History.self, Verdicts.self]
    )
}
