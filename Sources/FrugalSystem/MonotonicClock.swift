#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC` in nanoseconds: one clock for the harness and every workload.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary fixed point.
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Seconds from `origin` to `time` (both nanoseconds on this clock); negative if `time` is earlier.
    public static func seconds(from origin: UInt64, to time: UInt64) -> Double {
        time >= origin ? Double(time - origin) / 1e9 : -Double(origin - time) / 1e9
    }
}
