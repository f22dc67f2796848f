import Glibc

/// Wall-clock and monotonic time without Foundation.
public enum Clock {
    /// Seconds since the Unix epoch.
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }

    package static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) &* 1000 &+ Int64(ts.tv_nsec / 1_000_000)
    }
}
