extension MetricName {
    /// Hardware counters of a FrugalKit app's main thread in its handlers (user space), counted
    /// inside the app through PAPI on that thread: the same events as `cpu.instructions` and its
    /// kin, which count every process of the run from outside. Unavailable for a black-box
    /// program (nothing inside it counts a thread) and where the CPU has no PMU.
    public static let mainThreadInstructions = "mainThread.instructions"
    public static let mainThreadCycles = "mainThread.cycles"
    public static let mainThreadInstructionsPerCycle = "mainThread.instructionsPerCycle"
    public static let mainThreadCacheMisses = "mainThread.cacheMisses"
    public static let mainThreadBranchMisses = "mainThread.branchMisses"
    /// Time running ÷ time enabled of the main thread's hardware counters.
    public static let mainThreadCounterMultiplexing = "mainThread.counterMultiplexing"
}
