/// The loops of `replay`: frames as NDJSON or CSV lines when output is not a terminal, or the
/// full-screen view with keys. Both move a `ReplaySession` by the clock's time (or, with a
/// device, by the audio it has played), follow a growing file, and stop on `q`, a signal or the end.
/// The terminal and the clock are handed in, so tests drive both loops with fakes.
public struct ReplayRunner {
    public enum LineFormat: Sendable { case ndjson, csv }

    public struct Options: Sendable {
        public var from = 0.0
        public var speed = 1.0
        public var framesPerSecond = 30.0
        public var realtime = true
        public var follow = false
        /// ALSA device to play to, or nil.
        public var device: String?
        public var view = ReplayView.both
        public var stats = false
        /// Lines when piped.
        public var lineFormat = LineFormat.ndjson
        /// Colours of the full-screen view (`.none` draws channels apart by pattern).
        public var colorDepth = ColorDepth.ansi16
        public init() {}
    }

    public let player: ReplayPlayer
    public let options: Options

    public init(player: ReplayPlayer, options: Options) {
        self.player = player
        self.options = options
    }

    /// How long to wait for a followed file to grow before giving up at its end.
    static let followTimeout = 5.0

    /// Full screen when standard output is a terminal, lines otherwise.
    public func run(title: String) throws(SignalPathError) {
        if StandardOutput.isTerminal {
            let terminal = try RawTerminal()
            defer { terminal.restore() }
            try runScreen(title: title, terminal: terminal, clock: MonotonicClock())
        } else {
            try runLines(clock: MonotonicClock(), output: StandardOutput.write)
        }
    }

    /// Frames as lines through `output` (false: the reader has gone), paced by `clock` unless
    /// `realtime` is off.
    public func runLines(clock: any PacingClock, output: (String) -> Bool) throws(SignalPathError) {
        var session = ReplaySession(duration: player.duration, from: options.from, speed: options.speed)
        let period = 1 / options.framesPerSecond
        let audio = try openAudio()
        var previous = session.position
        var wroteHeader = false
        let start = clock.now
        var tick = 0
        var waitingSince: Double?
        var lastTime = -Double.infinity
        while !StopSignals.stopRequested {
            let frame = try player.frame(at: session.position, previous: previous)
            // Times only go forwards: a frame at a time already written (waiting at the end of a
            // followed file) is not written again.
            // (Compared at the microseconds lines are written with.)
            let time = (frame.time * 1e6).rounded()
            if time > lastTime {
                lastTime = time
                var line = frame.jsonLine() + "\n"
                if options.lineFormat == .csv {
                    var table = DelimitedText(.csv)
                    if !wroteHeader { table.append(frame.csvHeader()) }
                    table.append(frame.csvFields())
                    line = table.text
                    wroteHeader = true
                }
                guard output(line) else { return }  // the reader has gone
            }
            if session.atEnd {
                guard options.follow else { return }
                // At the end of a file being written: wait for it to grow.
                waitingSince = waitingSince ?? clock.now
                if clock.now - waitingSince! > Self.followTimeout { return }
                session.extend(to: try player.refresh())
            } else {
                waitingSince = nil
            }
            previous = session.position
            tick += 1
            if let audio, session.speed == 1 {
                // The device's clock paces: play the next period's frames (blocking while its buffer is full).
                try play(audio, from: session.position, seconds: period)
            } else if options.realtime {
                clock.sleep(until: start + Double(tick) * period)
            }
            session.advance(by: period)
        }
    }

    /// The full-screen view on `terminal`, driven by its keys and `clock`.
    public func runScreen(title: String, terminal: any Terminal, clock: any PacingClock) throws(SignalPathError) {
        var session = ReplaySession(duration: player.duration, from: options.from, speed: options.speed, view: options.view)
        var screen = LiveScreen(title: title, channels: player.file.format.channels, hints: .replay)
        screen.monochrome = options.colorDepth == .none
        var display = LiveDisplay(terminal: terminal, depth: options.colorDepth)
        let audio = try openAudio()
        let period = 1 / options.framesPerSecond
        var previous = session.position
        var last = clock.now
        /// Lets the clock's time since `last` pass: the audio of it is played, the play head moves.
        func elapse() throws(SignalPathError) {
            let now = clock.now
            if let audio, !session.paused, session.speed == 1, !session.atEnd {
                try play(audio, from: session.position, seconds: now - last)
            }
            session.advance(by: now - last)
            last = now
        }
        while !session.quit && !StopSignals.stopRequested {
            let shown = LiveScreen.shownChannels(of: player.file.format.channels, rows: terminal.size.rows)
            let frame = try player.frame(at: session.position, previous: previous, shown: shown)
            previous = session.position
            screen.view = session.view
            screen.status = status(session)
            screen.show(frame, now: clock.now, limit: display.historyLimit)
            guard display.show(screen) else { return }
            // Keys until the next frame is due, and at least once per frame: when drawing takes
            // longer than a frame (a slow terminal, a loaded machine) keys must still be read, or
            // q and Ctrl-C would never be seen. Time up to a key passes in the state before it
            // (a pause stops the head where it was when space came, Home lands on 0).
            let deadline = last + period
            let speed = session.speed
            var jumped = false
            repeat {
                let keys = terminal.readKeys(timeout: max(0, deadline - clock.now))
                guard !keys.isEmpty else { continue }
                try elapse()
                for key in keys { session.handle(key) }
                if session.seeked {
                    audio?.drop()
                    jumped = true
                }
            } while clock.now < deadline && !session.quit
            // The spectrogram's columns lie on one time axis only between jumps and changes of speed.
            if jumped || session.speed != speed { screen.clearHistory() }
            try elapse()
            if options.follow && session.atEnd { session.extend(to: try player.refresh()) }
        }
        audio?.drop()
    }

    private func openAudio() throws(SignalPathError) -> ALSADevice? {
        try options.device.map { name throws(SignalPathError) in
            try ALSADevice(name: name, direction: .playback, sampleRate: player.sampleRate, channels: player.file.format.channels)
        }
    }

    /// Plays `seconds` of the file from `position` (blocking while the device's buffer is full).
    private func play(_ audio: ALSADevice, from position: Double, seconds: Double) throws(SignalPathError) {
        let rate = Double(player.sampleRate)
        let from = Int64((position * rate).rounded())
        let to = min(Int64((player.duration * rate).rounded()), from + Int64(seconds * rate))
        guard to > from else { return }
        let samples = try player.samples(from..<to)
        let channels = player.file.format.channels
        try samples.withUnsafeBufferPointer { buffer in
            Result { () throws(SignalPathError) in try audio.play(buffer, frames: buffer.count / channels) }
        }.get()
    }

    /// `▶ 0:12.3 / 1:00.0  ×1  both` (and the cache's hit rate with `stats`): the play head in the
    /// shape of the duration, to the tenth (a clock that moves), truncated so that it never shows
    /// the end before it is reached.
    func status(_ session: ReplaySession) -> String {
        let shape = UnitFormat.TimeShape(session.duration, decimals: 1)
        func clock(_ seconds: Double) -> String { UnitFormat.time((seconds * 10).rounded(.down) / 10, decimals: 1, shape: shape) }
        var text =
            (session.paused ? "⏸ " : "▶ ") + clock(session.position) + " / " + clock(session.duration)
            + "  ×" + UnitFormat.significant(session.speed, 3) + (session.paused ? "  paused" : "") + "  " + session.view.rawValue
        if options.stats, let rate = player.cacheHitRate { text += "  cache hits " + UnitFormat.fixed(rate * 100, 0) + " %" }
        return text
    }
}
