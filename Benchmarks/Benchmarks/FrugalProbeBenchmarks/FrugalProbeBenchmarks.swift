#if canImport(Glibc)
import Glibc
#endif
import Benchmark
import FrugalProbe

/// What FrugalKit's metering costs: each main-thread handler reads the thread's counters twice
/// (start and end), so one reading's cost is half the overhead a handler pays to be measured.
let benchmarks: @Sendable () -> Void = {
    Benchmark("ThreadCounters.read (PAPI perf::TASK-CLOCK + perf::CONTEXT-SWITCHES)",
              configuration: .init(metrics: [.wallClock, .cpuTotal, .syscalls], scalingFactor: .kilo)) { benchmark in
        let counters = ThreadCounters(preferPAPI: true)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(counters.read()) }
    }

    Benchmark("ThreadCounters.read (getrusage RUSAGE_THREAD fallback)",
              configuration: .init(metrics: [.wallClock, .cpuTotal, .syscalls], scalingFactor: .kilo)) { benchmark in
        let counters = ThreadCounters(preferPAPI: false)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(counters.read()) }
    }

    Benchmark("ProcFS.sample of this process (the harness's per-sample cost)",
              configuration: .init(metrics: [.wallClock, .syscalls])) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? ProcFS.sample(pid: getpid(), time: MonotonicClock.now())) }
    }
}
