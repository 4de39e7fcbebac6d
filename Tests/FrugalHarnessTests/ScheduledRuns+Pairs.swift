import FrugalWorkloads

extension ScheduledRuns {
    /// The default suite's pairs that the pair classes judge (WorkloadPairTests,
    /// LifecyclePairTests, DiskWorkloadPairTests, MemoryWorkloadPairTests), run once for the
    /// whole test process as one `frugal run` of them would run them. Each class scheduled only
    /// its own runs, one class after another: the light ones (the news apps' 11 s, the timers,
    /// notes and servers) slept beside their own class's runs only, and every class's gated runs
    /// waited for its own exclusive ones; together they sleep beside the other classes'
    /// exclusive chain, as in `frugal run` (issue 28: about 30 s off the tests' main lane).
    /// Every assertion read from these records is one the default suite's verdicts already rely
    /// on these runs for (audit scores, counts of bytes and wakeups, the judged steps' times,
    /// which the scheduler's gate keeps to one at a time). LifecycleHarnessTests and
    /// MemoryPressureTests read the same runs (the same workload, default scenario and options)
    /// instead of making them again. The first test to ask pays for all of them (about 45 s):
    /// one class run alone with `--filter` takes that long.
    /// ThreadAttributionTests' light runs (the platform's threads, 10 s asleep) join them: they
    /// sleep beside the exclusive chain as in `frugal run`, about 11 s off the main lane.
    static let pairs = ScheduledRuns(WorkloadPairTests.workloads + LifecyclePairTests.workloads
                                     + DiskWorkloadPairTests.workloads + MemoryWorkloadPairTests.workloads
                                     + ThreadAttributionTests.workloads)
}
