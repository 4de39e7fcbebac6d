/// One thread's hardware counts (FrugalKit's main thread, counted inside the app through PAPI):
/// the part of two cumulative readings between them, as a handler's own counts.
extension HardwareCounterReading {
    /// The PAPI names FrugalKit counts a thread's hardware events by, in ``events`` order: the
    /// perf_event component's names of the same kernel events, user space only (`:u=1:k=0`
    /// overrides the event set's all-modes domain for these events alone).
    public static let papiThreadEvents = ["perf::INSTRUCTIONS:u=1:k=0", "perf::CPU-CYCLES:u=1:k=0",
                                          "perf::CACHE-MISSES:u=1:k=0", "perf::BRANCH-MISSES:u=1:k=0"]

    /// The counts from `earlier` to this reading (both cumulative, of one thread); unavailable if
    /// either is. A count that went backwards (a counter reset) gives no value, never a negative
    /// or wrapped one.
    public func since(_ earlier: HardwareCounterReading) -> HardwareCounterReading {
        combined(with: earlier) { a, b in
            guard let a, let b, a >= b else { return nil }
            return a - b
        }
    }

    /// Each count of this reading and `other`'s put together by `combine`; unavailable if either is.
    func combined(with other: HardwareCounterReading, _ combine: (UInt64?, UInt64?) -> UInt64?) -> HardwareCounterReading {
        if let reason = unavailable ?? other.unavailable { return HardwareCounterReading(unavailable: reason) }
        var result = self
        result.instructions = combine(instructions, other.instructions)
        result.cycles = combine(cycles, other.cycles)
        result.cacheMisses = combine(cacheMisses, other.cacheMisses)
        result.branchMisses = combine(branchMisses, other.branchMisses)
        result.timeEnabledNanoseconds = combine(timeEnabledNanoseconds, other.timeEnabledNanoseconds)
        result.timeRunningNanoseconds = combine(timeRunningNanoseconds, other.timeRunningNanoseconds)
        return result
    }

    /// Counts where a count may be missing on its own (a thread whose PMU has no cache-miss
    /// event still counts instructions): each field is optional, nil meaning "not counted".
    public init(instructions: UInt64?, cycles: UInt64?, cacheMisses: UInt64?, branchMisses: UInt64?,
                timeEnabledNanoseconds: UInt64?, timeRunningNanoseconds: UInt64?) {
        self.instructions = instructions
        self.cycles = cycles
        self.cacheMisses = cacheMisses
        self.branchMisses = branchMisses
        self.timeEnabledNanoseconds = timeEnabledNanoseconds
        self.timeRunningNanoseconds = timeRunningNanoseconds
    }
}
