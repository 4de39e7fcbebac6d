import FrugalCore

/// Decides when bytes read at a given moment may leave the delay line: one-way latency
/// plus deterministic jitter, never earlier than bytes read before them.
///
/// Jitter is drawn uniformly from `[-jitter, +jitter]` around the latency (clamped at
/// zero delay) by a ``SplitMix64`` seeded from the profile's seed, the connection id and
/// the direction, so a rerun of the same workload gets the same delays. A TCP stream
/// cannot be reordered, so a due time earlier than the previous one is raised to it:
/// jitter stretches gaps but never swaps bytes. (For a continuous stream this makes the
/// effective delay drift toward `latency + jitter`, as with netem's jitter without
/// reordering.) Times are monotonic nanoseconds, passed in so tests can use a fake clock.
public struct DelaySchedule: Sendable, Equatable {
    /// One-way latency in nanoseconds.
    public private(set) var latencyNanos: UInt64
    /// Maximum jitter in nanoseconds.
    public private(set) var jitterNanos: UInt64
    private var seed: UInt64
    private var random: SplitMix64
    private var lastDue: UInt64 = 0

    /// A schedule for `latency` ± `jitter` seconds whose jitter sequence is fixed by `seed`.
    public init(latency: Double, jitter: Double, seed: UInt64) {
        self.latencyNanos = Self.nanos(latency)
        self.jitterNanos = Self.nanos(jitter)
        self.seed = seed
        self.random = SplitMix64(seed: seed)
    }

    /// The seed ``ShapedStream`` uses for one direction of one connection.
    public static func seed(profileSeed: UInt64, connection: Int, uplink: Bool) -> UInt64 {
        profileSeed ^ (UInt64(truncatingIfNeeded: connection) &* 0x9E37_79B9_7F4A_7C15)
            ^ (uplink ? 0x7570_6C69_6E6B : 0x646F_776E_6C69_6E6B)
    }

    /// Changes latency and jitter for bytes read from now on. The jitter sequence continues
    /// unless `seed` differs from the current one, in which case it restarts from `seed`.
    public mutating func update(latency: Double, jitter: Double, seed: UInt64) {
        latencyNanos = Self.nanos(latency)
        jitterNanos = Self.nanos(jitter)
        if seed != self.seed {
            self.seed = seed
            random = SplitMix64(seed: seed)
        }
    }

    /// When bytes read at `now` may be released.
    public mutating func due(readAt now: UInt64) -> UInt64 {
        var delay = Int64(latencyNanos)
        if jitterNanos > 0 {
            let offset = (random.nextUnit() * 2 - 1) * Double(jitterNanos)
            delay = max(0, delay + Int64(offset))
        }
        return settle(now + UInt64(delay))
    }

    /// When a FIN read at `now` may be released: latency without jitter, so it is never
    /// early, and never before the data ahead of it.
    public mutating func finDue(readAt now: UInt64) -> UInt64 {
        settle(now + latencyNanos)
    }

    private mutating func settle(_ due: UInt64) -> UInt64 {
        let due = max(due, lastDue)
        lastDue = due
        return due
    }

    private static func nanos(_ seconds: Double) -> UInt64 {
        UInt64((max(0, seconds) * 1e9).rounded())
    }
}
