import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// A stereo WAV at 8 kHz: 1 kHz at −6 dBFS on the left, 250 Hz at −20 dBFS on the right.
func liveTestFile(_ scratch: ScratchDirectory, _ name: String, seconds: Double) -> String {
    let rate = 8000, frames = Int(seconds * Double(rate))
    let samples = (0..<frames).flatMap { index -> [Double] in
        let t = Double(index) / Double(rate)
        return [0.5 * sin(2 * .pi * 1000 * t), 0.1 * sin(2 * .pi * 250 * t)]
    }
    return scratch.write(name, PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: rate).file(samples: samples))
}

/// The play head and pause state of the transport line (`▶ 12.3 s / 20.0 s  ×1  both …`,
/// `▶ 0:12.3 / 1:00.0 …`), read as `--range` reads a time.
func transport(_ lines: [String]?) -> (position: Double, paused: Bool, line: String)? {
    guard let line = lines?.last(where: { $0.hasPrefix("▶ ") || $0.hasPrefix("⏸ ") }),
        let slash = line.firstRange(of: " / "), let seconds = TimeRange.seconds(String(line[line.index(line.startIndex, offsetBy: 2)..<slash.lowerBound]))
    else { return nil }
    return (seconds, line.hasPrefix("⏸"), line)
}

/// The labels under the spectrogram's time axis: `0.05 s … 2.00 s`.
func timeAxisLabels(_ lines: [String]?) -> [Double] {
    guard let lines, let axis = lines.lastIndex(where: { $0.contains("└─") }), axis + 1 < lines.count else { return [] }
    let words = lines[axis + 1].split(separator: " ")
    return zip(words, words.dropFirst()).compactMap { $1 == "s" ? Double($0) : nil }
}

@Suite("Replay's loops, driven by a fake terminal and a manual clock")
struct ReplayRunnerTests {
    let scratch = ScratchDirectory("replay-runner")

    func runner(seconds: Double = 20, _ configure: (inout ReplayRunner.Options) -> Void = { _ in }) throws -> ReplayRunner {
        var options = ReplayRunner.Options()
        // 8 frames a second: every frame time is exact in binary, so positions compare exactly.
        options.framesPerSecond = 8
        configure(&options)
        let player = try ReplayPlayer(path: liveTestFile(scratch, "replay-\(seconds).wav", seconds: seconds), fftSize: 1024, bands: nil)
        return ReplayRunner(player: player, options: options)
    }

    /// Runs the full-screen loop to its end on a fake terminal with `script`.
    func screen(_ runner: ReplayRunner, columns: Int = 100, rows: Int = 30, _ script: [(Double, FakeTerminal.Event)]) throws -> FakeTerminal {
        let clock = ManualClock()
        let terminal = FakeTerminal(columns: columns, rows: rows, clock: clock, script: script)
        try runner.runScreen(title: "replay test", terminal: terminal, clock: clock)
        return terminal
    }

    @Test("space pauses: 2 s later on the clock the play head has not moved; space again resumes at 1×")
    func pause() throws {
        let terminal = try screen(
            try runner { $0.from = 5 },
            [
                (0.5, .snapshot("running")), (1.0, .keys(" ")), (1.5, .snapshot("paused")), (3.5, .snapshot("paused later")),
                (4.0, .keys(" ")), (5.0, .snapshot("resumed")), (5.25, .keys("q")),
            ])
        let running = try #require(transport(terminal.snapshots["running"]))
        let paused = try #require(transport(terminal.snapshots["paused"]))
        let later = try #require(transport(terminal.snapshots["paused later"]))
        let resumed = try #require(transport(terminal.snapshots["resumed"]))
        #expect(!running.paused && running.position == 5.5, "\(running.line)")
        #expect(paused.paused && later.paused && paused.position == later.position, "\(paused.line) → \(later.line)")
        #expect(paused.line.contains("paused"))
        #expect(!resumed.paused && resumed.position == paused.position + 1, "\(resumed.line)")
    }

    @Test("q, Q, Esc and Ctrl-C each end the loop at once", arguments: ["q", "Q", "\u{1B}", "\u{03}"])
    func quitKeys(key: String) throws {
        let terminal = try screen(try runner(), [(2.0, .keys(key))])
        #expect(terminal.clock.now == 2.0, "ended when the key came, not later")
    }

    @Test("→ seeks 5 s and ← back, Home to the start, End to the end; + twice plays at 2×")
    func seekingAndSpeed() throws {
        let terminal = try screen(
            try runner { $0.from = 5 },
            [
                (1.0, .keys("\u{1B}[C")), (1.5, .snapshot("right")), (2.0, .keys("\u{1B}[D\u{1B}[D")), (2.5, .snapshot("left twice")),
                (3.0, .keys("\u{1B}[H")), (3.0, .snapshot("home")), (4.0, .keys("\u{1B}[F")), (4.0, .snapshot("end")),
                (5.0, .keys("\u{1B}[H++")), (6.0, .snapshot("double speed")), (6.5, .keys("q")),
            ])
        let right = try #require(transport(terminal.snapshots["right"])).position
        let leftTwice = try #require(transport(terminal.snapshots["left twice"])).position
        #expect(right == 5 + 1.5 + 5, "1.5 s played, then 5 s skipped")
        #expect(leftTwice == right + 1 - 10)
        #expect(transport(terminal.snapshots["home"])?.position == 0)
        #expect(transport(terminal.snapshots["end"])?.position == 20)
        let fast = try #require(transport(terminal.snapshots["double speed"]))
        #expect(fast.position == 2 && fast.line.contains("×2"), "1 s at 2× from the start: \(fast.line)")
    }

    @Test("v cycles the views: both, spectrum, spectrogram")
    func views() throws {
        let terminal = try screen(
            try runner(), [(0.5, .snapshot("both")), (0.6, .keys("v")), (1.0, .snapshot("spectrum")), (1.1, .keys("v")), (1.5, .snapshot("spectrogram")), (2, .keys("q"))])
        func has(_ label: String, _ text: String) -> Bool { terminal.snapshots[label]?.contains { $0.contains(text) } ?? false }
        #expect(has("both", "spectrum at the play head") && has("both", "spectrogram (scrolling)"))
        #expect(has("spectrum", "spectrum at the play head") && !has("spectrum", "spectrogram (scrolling)"))
        #expect(!has("spectrogram", "spectrum at the play head") && has("spectrogram", "spectrogram (scrolling)"))
    }

    @Test("a resize re-lays out the next frame: title on top, a meter per channel and the keys at the bottom of the new size")
    func resize() throws {
        let terminal = try screen(
            try runner(), columns: 100, rows: 30,
            [(0.5, .snapshot("before")), (1.0, .resize(TerminalSize(columns: 60, rows: 16))), (1.5, .snapshot("after")), (2.0, .keys("q"))])
        let before = try #require(terminal.snapshots["before"]), after = try #require(terminal.snapshots["after"])
        #expect(before.count == 30 && before[29].hasPrefix("▶ ") && before[29].hasSuffix("q quit"))
        #expect(after.count == 16 && after.allSatisfy { $0.count <= 60 })
        #expect(after[0].hasPrefix("replay test"))
        #expect(after[13].hasPrefix("left") && after[14].hasPrefix("right") && after[13].contains("dBFS"))
        #expect(after[15].hasPrefix("▶ ") && after[15].hasSuffix("q quit"), "\(after[15])")
    }

    @Test("1023 channels of 93 frames: the screen shows 10 channels' meters and spectra, says so, and transforms only those 10 per frame")
    func manyChannels() throws {
        var generator = SeededGenerator(seed: 39)
        let samples = (0..<93 * 1023).map { _ in Double.random(in: -0.25...0.25, using: &generator) }
        let path = scratch.write("1023-channels.wav", PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1023, sampleRate: 48_000).file(samples: samples))
        var options = ReplayRunner.Options()
        options.framesPerSecond = 8
        let player = try ReplayPlayer(path: path, fftSize: 4096, bands: nil)
        let terminal = try screen(ReplayRunner(player: player, options: options), columns: 100, rows: 30, [(0.5, .snapshot("screen")), (1.0, .keys("q"))])
        let lines = try #require(terminal.snapshots["screen"])
        // A third of 30 rows: ch1 … ch10 have meters, the views keep the rest of the screen.
        let meters = lines.filter { $0.hasPrefix("ch") && $0.contains("dBFS") }.map { String($0.prefix { $0 != " " }) }
        #expect(meters == (1...10).map { "ch\($0)" }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("spectrum at the play head") } && lines.contains { $0.contains("spectrogram (scrolling)") })
        #expect(lines.contains { $0.hasPrefix("loudness ") && $0.hasSuffix("channels 1–10 of 1023") })
        #expect(lines[29].hasPrefix("▶ ") && lines[29].hasSuffix("q quit"))
        // One transform per channel shown per frame drawn, not one per channel of the file.
        #expect(terminal.writes >= 8 && player.analyzer.transformCount == 10 * terminal.writes, "\(player.analyzer.transformCount) transforms for \(terminal.writes) frames")
    }

    @Test("the scrolling spectrogram's time axis runs from its oldest column to its newest: at 8 fps and 2×, 3.75 s of clock span 7.5 s")
    func timeAxis() throws {
        let terminal = try screen(
            try runner { $0.from = 1 },
            [(0.0, .keys("++")), (3.875, .snapshot("fast")), (4.0, .keys("\u{1B}[C")), (5.0, .snapshot("after seek")), (5.5, .keys("q"))])
        // The change of speed at the start drops the first column; then a column every 0.125 s
        // of clock, 0.25 s of file, from 1.25 s to 8.75 s.
        #expect(timeAxisLabels(terminal.snapshots["fast"]) == [1.25, 5, 8.75], "\(terminal.snapshots["fast"] ?? [])")
        // A seek starts the axis again: columns from before it are not on the same axis.
        #expect(timeAxisLabels(terminal.snapshots["after seek"]) == [14, 15, 16])
    }

    @Test("without colour the renderer writes no colour codes and the two channels' legend shows two patterns")
    func monochrome() throws {
        let terminal = try screen(try runner { $0.colorDepth = .none }, [(0.5, .snapshot("screen")), (1, .keys("q"))])
        #expect(!terminal.output.contains("\u{1B}[0;") && !terminal.output.contains("38;"), "no SGR colour sequences")
        let legend = try #require(terminal.snapshots["screen"]?.first { $0.contains("left") && $0.contains("right") && $0.contains("dBFS") })
        #expect(legend.contains(DotPattern.solid.sample(cells: 3) + " left") && legend.contains(DotPattern.dotted.sample(cells: 3) + " right"), "\(legend)")
    }

    @Test("a terminal that stops taking output ends the loop")
    func terminalGone() throws {
        let clock = ManualClock()
        let terminal = FakeTerminal(clock: clock)
        terminal.accepting = false
        try (try runner()).runScreen(title: "t", terminal: terminal, clock: clock)
        #expect(terminal.writes == 0 && clock.now == 0)
    }

    // MARK: - Lines

    /// Runs the line loop with a manual clock; the lines written and the clock's time at the end.
    func lines(_ runner: ReplayRunner) throws -> (lines: [String], elapsed: Double) {
        let clock = ManualClock()
        var written: [String] = []
        try runner.runLines(clock: clock) {
            written.append($0)
            return true
        }
        return (written.joined().split(whereSeparator: \.isNewline).map(String.init), clock.now)
    }

    @Test("piped: one NDJSON frame per period from --from to the end, paced by the clock: 2 s of file take 2 s, or 1 s at 2×")
    func ndjsonPacing() throws {
        let (ndjson, elapsed) = try lines(try runner(seconds: 10) { $0.from = 8 })
        let times = ndjson.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["time_s"] as? Double }
        #expect(times == (0...16).map { 8 + Double($0) / 8 }, "a frame every 1/8 s from 8 s to 10 s")
        #expect(elapsed == 2, "slept until each frame was due, and not after the last")
        let (fast, fastElapsed) = try lines(
            try runner(seconds: 10) {
                $0.from = 8
                $0.speed = 2
            })
        #expect(fast.count == 9 && fastElapsed == 1)
        let (unpaced, unpacedElapsed) = try lines(
            try runner(seconds: 10) {
                $0.from = 8
                $0.realtime = false
            })
        #expect(unpaced.count == 17 && unpacedElapsed == 0, "--no-realtime never sleeps")
    }

    @Test("piped CSV: the header once, then a row per frame; a reader that goes away ends the loop")
    func csvAndClosedPipe() throws {
        let (rows, _) = try lines(
            try runner(seconds: 10) {
                $0.from = 9
                $0.lineFormat = .csv
            })
        #expect(rows.count == 1 + 9 && rows[0].hasPrefix("time_s,momentary_lufs,short_term_lufs,left_rms_dbfs,left_peak_dbfs,right_rms_dbfs,right_peak_dbfs,left_0hz"))
        #expect(rows.dropFirst().allSatisfy { !$0.hasPrefix("time_s") })
        var calls = 0
        let clock = ManualClock()
        try (try runner()).runLines(clock: clock) { _ in
            calls += 1
            return false
        }
        #expect(calls == 1 && clock.now == 0)
    }

    @Test("--follow on a file that does not grow: waits at its end for the follow timeout on the clock, writing no frame twice")
    func followTimeout() throws {
        let (ndjson, elapsed) = try lines(
            try runner(seconds: 4) {
                $0.from = 3
                $0.follow = true
            })
        #expect(ndjson.count == 9, "3 s to 4 s at 8 fps, the last frame once")
        #expect(elapsed > 1 + ReplayRunner.followTimeout && elapsed <= 1 + ReplayRunner.followTimeout + 0.25, "\(elapsed)")
    }
}
