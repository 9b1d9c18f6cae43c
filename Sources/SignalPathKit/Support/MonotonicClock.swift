/// Time for loops that pace themselves (replay's frames, record's meters): seconds on a scale
/// that only moves forwards, and a sleep until a moment on it. The live loops take one, so tests
/// drive them with a clock they move by hand instead of waiting.
public protocol PacingClock: AnyObject {
    /// Seconds since an arbitrary start.
    var now: Double { get }
    /// Returns at `deadline` (or at once when it has passed); may return early when asked to stop.
    func sleep(until deadline: Double)
}

/// The system's monotonic clock (CLOCK_MONOTONIC); its sleep returns early on a stop signal.
public final class MonotonicClock: PacingClock {
    public init() {}

    public var now: Double { monotonicSeconds() }

    public func sleep(until deadline: Double) {
        while !StopSignals.stopRequested {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { return }
            var request = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - Double(Int(remaining))) * 1e9))
            nanosleep(&request, nil)
        }
    }
}

/// Seconds on a monotonic clock.
public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
