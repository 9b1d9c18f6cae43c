@testable import SignalPathKit

/// A clock moved by hand: `sleep(until:)` jumps to the deadline at once.
final class ManualClock: PacingClock {
    private(set) var now: Double

    init(start: Double = 0) {
        now = start
    }

    func sleep(until deadline: Double) { now = max(now, deadline) }

    func advance(to time: Double) { now = max(now, time) }
}
