/// The thread-count metric, declared whole in this file as a ``MetricFamily``: its name, its
/// declaration (unit, direction, minimum effect) and its extractor, with one line in `MetricFamily.all`. Each thread an app keeps costs a stack, its
/// own wakeups, and scheduler work; a count that grows with use is a pool left unbounded.
extension MetricName {
    /// The most threads the process had at once, seen in the harness's `/proc` samples.
    public static let threadsPeak = "threads.peak"
}

extension MetricFamily {
    /// `threads.peak`, with its extractor (``MetricExtraction/threadMetrics(_:_:)``).
    static let threads = MetricFamily([threadsPeak], extract: MetricExtraction.threadMetrics)

    static let threadsPeak = MetricDefinition(
        MetricName.threadsPeak, unit: "count", direction: .lowerIsBetter,
        minimumEffect: MinimumEffect(relative: nil, absolute: 2, gating: false,
                                     reason: "libdispatch sizes its pool to the work and the cores: a thread or two more is the machine (reported, never fails)"),
        source: MetricExtraction.threadsSource,
        availability: "apps and programs alike (the harness lists /proc/<pid>/task in each sample); unavailable when no sample listed the threads")
}

extension MetricExtraction {
    /// Where the count comes from: each sample lists `/proc/<pid>/task`.
    public static let threadsSource = "proc:<pid>/task (sampled)"

    /// The most threads seen in one sample of the process; unavailable with no sample. Samples
    /// are 0.2 s apart, so a thread that lived between two of them is not counted: a floor.
    @Sendable static func threadMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        let declared = MetricFamily.threadsPeak
        guard let peak = analysis.record.samples.map(\.threads.count).max(), peak > 0 else {
            metrics[declared.name] = declared.unavailable("no /proc sample of the process listed its threads")
            return
        }
        metrics[declared.name] = declared.value(Double(peak))
    }
}
