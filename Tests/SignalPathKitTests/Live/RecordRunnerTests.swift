import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Record's full-screen loop, driven by a fake terminal and a manual clock")
struct RecordRunnerTests {
    let scratch = ScratchDirectory("record-runner")

    /// `seconds` of raw s16le stereo at 48 kHz in a file: a 1 kHz sine at half scale on the left,
    /// silence on the right.
    func rawInput(seconds: Double) -> String {
        let frames = Int(seconds * 48_000)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frames * 4)
        for index in 0..<frames {
            let left = Int16((16_384 * sin(2 * .pi * 1000 * Double(index) / 48_000)).rounded())
            withUnsafeBytes(of: left.littleEndian) { bytes += $0 }
            bytes += [0, 0]
        }
        return scratch.write("input-\(seconds).raw", bytes)
    }

    /// Records `seconds` of input into a new WAV through the full-screen loop at 20 fps; the
    /// clock moves 0.05 s per frame drawn, as it would in real time.
    func record(seconds: Double, columns: Int = 100, depth: ColorDepth = .ansi256, _ script: [(Double, FakeTerminal.Event)] = []) throws -> (
        summary: Recorder.Summary, terminal: FakeTerminal, path: String
    ) {
        let input = open(rawInput(seconds: seconds), O_RDONLY)
        defer { close(input) }
        let path = scratch.file("take-\(UUID().uuidString.prefix(6)).wav")
        let recorder = try Recorder(
            path: path, source: .descriptor(input), format: .s16le, sampleRate: 48_000, channels: 2,
            overwrite: false, fftSize: 1024, bands: nil)
        var options = RecordRunner.Options()
        options.framesPerSecond = 20
        options.colorDepth = depth
        let clock = ManualClock()
        let terminal = FakeTerminal(columns: columns, rows: 30, clock: clock, script: script)
        terminal.timePerWrite = 0.05
        return (try RecordRunner(recorder: recorder, options: options).runScreen(title: "record test", terminal: terminal, clock: clock), terminal, path)
    }

    @Test("after 40 frames of 2 s of input: elapsed time and size, meters, keys, and a time axis of 0.05 … 2.00 s (20 columns a second)")
    func screenAfterFrames() throws {
        let (summary, terminal, _) = try record(seconds: 2)
        #expect(summary.frames == 96_000 && summary.stoppedBy == "end of input")
        #expect(terminal.writes == 40, "a frame per 2 400-frame block")
        let lines = terminal.lines
        #expect(lines[0].hasPrefix("record test"))
        // 96 000 frames × 4 bytes.
        #expect(lines[29].hasPrefix("● REC 2.0 s · 375.0 KiB") && lines[29].hasSuffix("q or Ctrl-C stops and finishes the file"), "\(lines[29])")
        // Half-scale sine: RMS 0.354 of full scale = −9.03 dB (re a full-scale square, as the meters state).
        #expect(lines[27].hasPrefix("left") && lines[27].contains("-9.0 dBFS"), "\(lines[27])")
        #expect(lines[28].hasPrefix("right") && lines[28].contains("-inf dBFS"), "\(lines[28])")
        // The block is 2 400 frames at 48 kHz: 20 columns per second, not 30.
        #expect(timeAxisLabels(lines).first == 0.05 && timeAxisLabels(lines).last == 2.0, "\(timeAxisLabels(lines))")
    }

    @Test("q stops the recording at the next block and the file is finished; v changes the view", arguments: ["q", "\u{03}", "\u{1B}"])
    func stopKey(key: String) throws {
        let (summary, terminal, path) = try record(seconds: 4, [(0.5, .keys("v")), (0.5, .snapshot("spectrum only")), (1.0, .keys(key))])
        // Frame n is drawn at 0.05 n s; the key at 1.0 s is read before block 21.
        #expect(summary.frames == 21 * 2400, "\(summary.frames)")
        #expect(summary.stoppedBy == (key == "\u{03}" ? "Ctrl-C" : "the q key"))
        let screen = try #require(terminal.snapshots["spectrum only"])
        #expect(screen.contains { $0.contains("spectrum at the play head") } && !screen.contains { $0.contains("spectrogram (scrolling)") })
        let stored = try AudioFile.open(path)
        #expect(stored.format.frames == Int64(21 * 2400), "the file holds every block written")
    }

    @Test("the stop hint is on the last row at every width from 40 to 200 columns", arguments: [40, 41, 57, 64, 80, 100, 101, 120, 160, 200])
    func hintAtWidths(columns: Int) throws {
        let (_, terminal, _) = try record(seconds: 0.2, columns: columns)
        let last = terminal.lines[29]
        #expect(last.hasPrefix("● REC") && last.count <= columns, "\(last)")
        #expect(last.hasSuffix("q stop") || last.hasSuffix("q or Ctrl-C stops and finishes the file"), "\(last)")
    }
}
