/// A progress line with ETA on standard error, redrawn in place at most ten times a second and
/// erased when done. Shown only when standard error is a terminal, and only for work that has
/// already taken a second (short files never flicker a line).
public final class ProgressLine: Sendable {
    private struct State {
        var started = ContinuousClock.now
        var lastDrawn: ContinuousClock.Instant?
        var visible = false
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
            guard elapsed >= 1, fraction > 0, fraction < 1 else { return }
            if let last = state.lastDrawn, Self.seconds(now - last) < 0.1 { return }
            state.lastDrawn = now
            state.visible = true
            let remaining = elapsed * (1 - fraction) / fraction
            let done = status ?? "\(UnitFormat.fixed(fraction * 100, 0)) %"
            StandardError.write("\r\u{1B}[K\(label)  \(done)  ETA \(UnitFormat.duration(remaining.rounded()))")
        }
    }

    /// Erases the line, if it was drawn. The next update draws it again at once (scan erases it to
    /// print a failed file's line, and a file that takes long may follow).
    public func finish() {
        state.withLock { state in
            if state.visible { StandardError.write("\r\u{1B}[K") }
            state.visible = false
            state.lastDrawn = nil
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
