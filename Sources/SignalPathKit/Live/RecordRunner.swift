/// The loops of `record`: NDJSON frames when output is not a terminal, or the full-screen view
/// (spectrum, scrolling spectrogram, meters, elapsed time and size) with keys to change the view
/// and to stop. The terminal and the clock are handed in, so tests drive the loop with fakes.
public struct RecordRunner {
    public struct Options: Sendable {
        /// Stop after this many seconds of audio; nil: until the input ends or a stop.
        public var duration: Double?
        public var framesPerSecond = 20.0
        /// Colours of the full-screen view (`.none` draws channels apart by pattern).
        public var colorDepth = ColorDepth.ansi16
        public init() {}
    }

    public let recorder: Recorder
    public let options: Options

    public init(recorder: Recorder, options: Options) {
        self.recorder = recorder
        self.options = options
    }

    /// Full screen when standard output is a terminal, lines otherwise. Keys come from the
    /// terminal beside standard input when that carries the audio.
    public func run(title: String) throws(SignalPathError) -> Recorder.Summary {
        guard StandardOutput.isTerminal else {
            // A closed pipe does not stop a recording.
            return try runLines { _ = StandardOutput.write($0) }
        }
        let readsStandardInput = if case .device = recorder.source { false } else { true }
        // Ctrl-C stays a signal: it must stop a recording whose input has stalled (a blocked read
        // never gets to the keys), as it did before the full screen.
        let terminal = try RawTerminal(keyboard: readsStandardInput ? .besideStandardInput : .optional, signals: true)
        defer { terminal.restore() }
        return try runScreen(title: title, terminal: terminal, clock: MonotonicClock())
    }

    /// One NDJSON line per frame through `output`.
    public func runLines(output: (String) -> Void) throws(SignalPathError) -> Recorder.Summary {
        try recorder.run(duration: options.duration, framesPerSecond: options.framesPerSecond) { frame, _, _ in
            output(frame.jsonLine() + "\n")
            return true
        }
    }

    /// The full-screen view on `terminal`; `clock` times the meters' holds. q, Esc or Ctrl-C
    /// stop the recording (the file is finished as on SIGINT), v changes the view.
    public func runScreen(title: String, terminal: any Terminal, clock: any PacingClock) throws(SignalPathError) -> Recorder.Summary {
        var screen = LiveScreen(title: title, channels: recorder.channels, hints: .record)
        screen.monochrome = options.colorDepth == .none
        var display = LiveDisplay(terminal: terminal, depth: options.colorDepth)
        let bytesPerFrame = Int64(recorder.channels * recorder.format.bytesPerSample)
        var stoppedBy: String?
        var summary = try recorder.run(duration: options.duration, framesPerSecond: options.framesPerSecond) { frame, written, clipped in
            // Keys once per block: the block's read already waited for the audio.
            for key in terminal.readKeys(timeout: 0) {
                switch key {
                case .character("q"), .character("Q"), .escape: stoppedBy = "the q key"
                case .interrupt: stoppedBy = "Ctrl-C"
                case .character("v"): screen.view = screen.view.next
                default: break
                }
            }
            screen.status =
                "● REC " + UnitFormat.time(frame.time, decimals: 1) + " · " + UnitFormat.bytes(written * bytesPerFrame)
                + (clipped > 0 ? " · \(UnitFormat.grouped(clipped)) clipped" : "")
            screen.show(frame, now: clock.now, limit: display.historyLimit)
            guard display.show(screen) else {
                stoppedBy = "the terminal closing"
                return false
            }
            return stoppedBy == nil
        }
        if let stoppedBy { summary.stoppedBy = stoppedBy }
        return summary
    }
}
