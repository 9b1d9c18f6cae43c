/// Seconds on a monotonic clock.
public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Sleeps until `deadline` (monotonic seconds); returns early when a stop signal arrives.
public func sleep(until deadline: Double) {
    while !StopSignals.stopRequested {
        let remaining = deadline - monotonicSeconds()
        guard remaining > 0 else { return }
        var request = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - Double(Int(remaining))) * 1e9))
        nanosleep(&request, nil)
    }
}
