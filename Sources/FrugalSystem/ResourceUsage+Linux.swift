#if canImport(Glibc)
import Glibc
#endif
import FrugalProtocol

extension ResourceUsage {
    /// Converts the kernel's `rusage`.
    public init(_ usage: rusage) {
        func seconds(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
        self.init(userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime),
                  voluntaryContextSwitches: Int(usage.ru_nvcsw), involuntaryContextSwitches: Int(usage.ru_nivcsw),
                  maxResidentBytes: Int(usage.ru_maxrss) * 1024, majorFaults: Int(usage.ru_majflt),
                  minorFaults: Int(usage.ru_minflt))
    }

    /// The calling thread's usage (`RUSAGE_THREAD`, Linux): the fallback for per-handler
    /// counters when PAPI cannot count.
    public static func currentThread() throws -> ResourceUsage {
        var usage = rusage()
        try SystemCall.retrying("getrusage", subject: "RUSAGE_THREAD") { getrusage(__rusage_who_t(1), &usage) } // RUSAGE_THREAD = 1
        return ResourceUsage(usage)
    }

    /// The whole calling process's usage.
    public static func currentProcess() throws -> ResourceUsage {
        var usage = rusage()
        try SystemCall.retrying("getrusage", subject: "RUSAGE_SELF") { getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) }
        return ResourceUsage(usage)
    }
}
