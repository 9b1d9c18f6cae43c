import Testing
@testable import SignalPathKit

@Suite("LiveScreen: key hints that fit, the spectrogram's time axis")
struct LiveScreenTests {
    static let replayStatus = "▶ 0:12.3 / 1:00.0  ×1  both", statsStatus = "⏸ 12:12.3 / 59:00.0  ×0.25  paused  spectrogram  cache hits 97 %"

    @Test("at every width from 40 to 200 the line fits and ends with the way out; the wider, the more hints", arguments: [replayStatus, statsStatus])
    func replayHintsFit(status: String) {
        var previousCount = 0
        for width in 40...200 {
            let line = KeyHints.replay.line(status: status, width: width)
            #expect(line.count <= width, "\(width): \(line)")
            #expect(line.hasSuffix("q quit"), "\(width): \(line)")
            let hints = KeyHints.replay.hints.filter { line.contains($0.short) || line.contains($0.long) }.count
            #expect(hints >= previousCount, "\(width): no hint is lost by widening")
            previousCount = hints
        }
        #expect(KeyHints.replay.line(status: Self.replayStatus, width: 200).hasSuffix("· v view · q quit"), "all long words when there is room")
    }

    @Test("hints go in order of importance: pause and seeking stay longest, Home/End goes first")
    func importance() {
        let line = KeyHints.replay.line(status: Self.replayStatus, width: 80)
        #expect(line.contains("pause") && line.contains("5") && !line.contains("Home/End"), "\(line)")
        // Where only the way out fits after the status, the status is cut, never the way out.
        let narrow = KeyHints.replay.line(status: Self.statsStatus, width: 40)
        #expect(narrow.count == 40 && narrow.hasSuffix(" q quit") && narrow.hasPrefix("⏸ 12:12.3"), "\(narrow)")
        #expect(KeyHints.replay.line(status: "x", width: 4) == "q qu")
    }

    @Test("record's stop hint is always shown, in long words when there is room")
    func recordHints() {
        for width in 40...200 {
            let line = KeyHints.record.line(status: "● REC 1:02:03.4 · 1.25 GiB", width: width)
            #expect(line.count <= width && (line.hasSuffix("q stop") || line.hasSuffix("q or Ctrl-C stops and finishes the file")), "\(width): \(line)")
        }
    }

    @Test("drawn at widths 40 … 200, the screen's last row ends with q quit", arguments: [40, 55, 79, 80, 99, 100, 101, 110, 140, 200])
    func drawnHints(width: Int) {
        var screen = LiveScreen(title: "t", channels: 2, hints: .replay)
        screen.status = Self.replayStatus
        var canvas = Canvas(width: width, height: 24)
        screen.draw(into: &canvas, area: Area(x: 0, y: 0, width: width, height: 24))
        var last = String(canvas.text.split(separator: "\n", omittingEmptySubsequences: false)[23])
        while last.hasSuffix(" ") { last.removeLast() }
        #expect(last.hasSuffix("q quit"), "\(width): \(last)")
    }

    /// A frame at `time` of a 2-channel analyzer (silence).
    func frame(at time: Double) -> LiveFrame {
        let analyzer = LiveAnalyzer(
            sampleRate: 48_000, layout: .assumed(channels: 2, container: .wav, sampleFormat: .float(bits: 32)), sampleFormat: .float(bits: 32), fftSize: 256, bands: nil)
        let silence = [Float](repeating: 0, count: 512)
        return silence.withUnsafeBufferPointer { analyzer.frame(time: time, recent: $0, window: $0) }
    }

    @Test("the spectrogram's axis is the times of its columns: 40 frames at 20 fps span 0.05 … 2.00 s; a paused frame adds no column; going back starts again")
    func historyTimes() {
        var screen = LiveScreen(title: "t", channels: 2, hints: .record)
        for index in 1...40 { screen.show(frame(at: Double(index) * 2400 / 48_000), now: 0, limit: 100) }
        #expect(screen.history.count == 40 && screen.historyTimeRange == 0.05...2.0)
        screen.show(frame(at: 2.0), now: 0, limit: 100)
        #expect(screen.history.count == 40, "the same time again (paused) does not scroll")
        for index in 41...60 { screen.show(frame(at: Double(index) * 2400 / 48_000), now: 0, limit: 30) }
        #expect(screen.history.count == 30 && screen.historyTimeRange == 1.55...3.0, "the oldest columns leave at the limit")
        screen.show(frame(at: 1.0), now: 0, limit: 30)
        #expect(screen.history.count == 1 && screen.historyTimeRange == 1.0...1.0)
    }
}
