/// A progress line with ETA on standard error, redrawn in place at most ten times a second and
/// erased when done, or when any other text goes to the terminal (`StandardError`). Shown only
/// when standard error is a terminal, and only for work that has already taken a second (short
/// files never flicker a line; `SIGNALPATH_PROGRESS_AFTER` sets another wait, docs/OUTPUT.md).
public final class ProgressLine: Sendable {
    /// Seconds of work before a line shows: 1, or `SIGNALPATH_PROGRESS_AFTER` when it is a number ≥ 0.
    static let shownAfter: Double = getenv("SIGNALPATH_PROGRESS_AFTER").flatMap { Double(String(cString: $0)) }.flatMap { $0 >= 0 ? $0 : nil } ?? 1

    private struct State {
        var started = ContinuousClock.now
        var lastDrawn: ContinuousClock.Instant?
    }

    private let label: String
    private let enabled: Bool
    private let state = Protected(State())

    public init(label: String, enabled: Bool = StandardError.isTerminal) {
        self.label = TerminalText.sanitized(label)
        self.enabled = enabled
    }

    /// Reports `fraction` (0…1) done; `status` (scan's counts and rates) replaces the percentage.
    public func update(_ fraction: Double, status: String? = nil) {
        guard enabled else { return }
        state.withLock { state in
            let now = ContinuousClock.now
            let elapsed = Self.seconds(now - state.started)
            guard elapsed >= Self.shownAfter, fraction > 0, fraction < 1 else { return }
            if let last = state.lastDrawn, Self.seconds(now - last) < 0.1 { return }
            state.lastDrawn = now
            let remaining = elapsed * (1 - fraction) / fraction
            let done = status ?? "\(UnitFormat.fixed(fraction * 100, 0)) %"
            StandardError.showProgress("\(label)  \(done)  ETA \(Self.estimate(remaining))")
        }
    }

    /// Erases the line, if it was drawn. The next update draws it again at once (scan erases it to
    /// print a failed file's line, and a file that takes long may follow).
    public func finish() {
        guard enabled else { return }
        state.withLock { state in
            StandardError.eraseProgress()
            state.lastDrawn = nil
        }
    }

    /// A time to wait, rounded as people say it: "3 s", "1 min 20 s", "2 h 5 min" (an estimate
    /// has no use for fractions of a second, nor for seconds past an hour); at least "1 s".
    static func estimate(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "unknown" }
        let whole = max(1, Int(min(seconds, 1e9).rounded()))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min" + (whole % 60 == 0 ? "" : " \(whole % 60) s") }
        let minutes = Int((Double(whole) / 60).rounded())
        return "\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min")
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
