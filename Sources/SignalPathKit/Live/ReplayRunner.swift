/// The loops of `replay`: frames as NDJSON or CSV lines when output is not a terminal, or the
/// full-screen view with keys. Both move a `ReplaySession` by wall time (or, with a device, by the
/// audio it has played), follow a growing file, and stop on `q`, a signal or the end.
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

    /// Frames as lines on standard output, paced in real time unless `realtime` is off.
    public func runLines(_ format: LineFormat) throws(SignalPathError) {
        var session = ReplaySession(duration: player.duration, from: options.from, speed: options.speed)
        let period = 1 / options.framesPerSecond
        let audio = try options.device.map { name throws(SignalPathError) in
            try ALSADevice(name: name, direction: .playback, sampleRate: player.sampleRate, channels: player.file.format.channels)
        }
        var previous = session.position
        var wroteHeader = false
        let start = monotonicSeconds()
        var tick = 0
        var waitingSince: Double?
        var lastTime = -Double.infinity
        while !StopSignals.stopRequested {
            let frame = try player.frame(at: session.position, previous: previous)
            // Times only go forwards: a frame at a time already written (waiting at the end of a
            // followed file) is not written again.
            // (Compared at the microseconds lines are written with.)
            let time = (frame.time * 1e6).rounded()
            let isNew = time > lastTime
            lastTime = max(lastTime, time)
            var line = ""
            if isNew {
                switch format {
                case .ndjson: line = frame.jsonLine() + "\n"
                case .csv:
                    var table = DelimitedText(.csv)
                    if !wroteHeader { table.append(frame.csvHeader()) }
                    table.append(frame.csvFields())
                    line = table.text
                    wroteHeader = true
                }
            }
            if isNew {
                guard StandardOutput.write(line) else { return }  // the reader has gone
            }
            if session.atEnd {
                guard options.follow else { return }
                // At the end of a file being written: wait for it to grow.
                waitingSince = waitingSince ?? monotonicSeconds()
                if monotonicSeconds() - waitingSince! > Self.followTimeout { return }
                session.extend(to: try player.refresh())
            } else {
                waitingSince = nil
            }
            previous = session.position
            tick += 1
            if let audio, session.speed == 1 {
                // The device's clock paces: play the next period's frames (blocking while its buffer is full).
                let rate = Double(player.sampleRate)
                let from = Int64((session.position * rate).rounded())
                let to = min(Int64((player.duration * rate).rounded()), from + Int64(period * rate))
                if to > from {
                    let samples = try player.samples(from..<to)
                    try samples.withUnsafeBufferPointer { buffer in
                        Result { () throws(SignalPathError) in try audio.play(buffer, frames: buffer.count / player.file.format.channels) }
                    }.get()
                }
            } else if options.realtime {
                sleep(until: start + Double(tick) * period)
            }
            session.advance(by: period)
        }
    }

    /// The full-screen view, driven by keys; the terminal is restored however it ends.
    public func runScreen(title: String) throws(SignalPathError) {
        let terminal = try RawTerminal()
        defer { terminal.restore() }
        var session = ReplaySession(duration: player.duration, from: options.from, speed: options.speed, view: options.view)
        let channels = player.file.format.channels
        var screen = LiveScreen(title: title, channels: channels, transport: "")
        let renderer = ANSIRenderer(depth: ColorDepth.detect(choice: .auto, isTerminal: true, environment: ProcessEnvironment.current))
        let audio = try options.device.map { name throws(SignalPathError) in
            try ALSADevice(name: name, direction: .playback, sampleRate: player.sampleRate, channels: channels)
        }
        let period = 1 / options.framesPerSecond
        var previousCanvas: Canvas?
        var previous = session.position
        var last = monotonicSeconds()
        while !session.quit && !StopSignals.stopRequested {
            let size = TerminalSize.current(environment: ProcessEnvironment.current) ?? TerminalSize(columns: 80, rows: 24)
            let frame = try player.frame(at: session.position, previous: previous)
            previous = session.position
            screen.view = session.view
            screen.transport = transport(session)
            screen.show(frame, now: monotonicSeconds(), limit: max(1, size.columns - 6))
            let canvas = PlotOutput.canvas(width: size.columns, height: size.rows) { screen.draw(into: &$0, area: $1) }
            guard StandardOutput.write(renderer.frame(canvas, previous: previousCanvas)) else { return }
            previousCanvas = canvas
            // Keys until the next frame is due, and at least once per frame: when drawing takes
            // longer than a frame (a slow terminal, a loaded machine) keys must still be read, or
            // q and Ctrl-C would never be seen.
            let deadline = last + period
            repeat {
                for key in terminal.readKeys(timeout: max(0, deadline - monotonicSeconds())) { session.handle(key) }
                if session.seeked { audio?.drop() }
            } while monotonicSeconds() < deadline && !session.quit
            let now = monotonicSeconds()
            if let audio, !session.paused, session.speed == 1, !session.atEnd {
                let rate = Double(player.sampleRate)
                let from = Int64((session.position * rate).rounded())
                let to = min(Int64((player.duration * rate).rounded()), from + Int64((now - last) * rate))
                if to > from {
                    let samples = try player.samples(from..<to)
                    try samples.withUnsafeBufferPointer { buffer in
                        Result { () throws(SignalPathError) in try audio.play(buffer, frames: buffer.count / channels) }
                    }.get()
                }
            }
            session.advance(by: now - last)
            last = now
            if options.follow && session.atEnd { session.extend(to: try player.refresh()) }
        }
        audio?.drop()
    }

    /// `▶ 00:12.3 / 01:00.0  ×1  both  [space] pause …`
    func transport(_ session: ReplaySession) -> String {
        func clock(_ seconds: Double) -> String {
            let tenths = Int((seconds * 10).rounded(.down))
            let minutes = tenths / 600, rest = tenths % 600
            return (minutes < 10 ? "0" : "") + "\(minutes):" + (rest < 100 ? "0" : "") + "\(rest / 10).\(rest % 10)"
        }
        var text =
            (session.paused ? "⏸ " : "▶ ") + clock(session.position) + " / " + clock(session.duration)
            + "  ×" + UnitFormat.significant(session.speed, 3) + (session.paused ? "  paused" : "") + "  " + session.view.rawValue
        if options.stats, let rate = player.cacheHitRate { text += "  cache hits " + UnitFormat.fixed(rate * 100, 0) + " %" }
        return text + "   space pause · ←/→ 5 s · PgUp/PgDn 1 min · Home/End · +/- speed · v view · q quit"
    }
}
