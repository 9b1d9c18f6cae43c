import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Live frames carry momentary and short-term loudness (replay, record)")
struct LiveLoudnessTests {
    let scratch = ScratchDirectory("live-loudness")

    @Test("replay: a -23 dBFS 1 kHz stereo sine reads -23.0 ± 0.1 LUFS M and S at the head, also right after a seek; S is empty in the first 3 s")
    func replayFrames() throws {
        let path = floatWAV(scratch, "sine.wav", stereo(sine(1000, dbfs: -23, seconds: 8)), channels: 2)
        let player = try ReplayPlayer(path: path, fftSize: 1024, bands: nil)
        let early = try player.frame(at: 1, previous: 0.9)
        #expect(abs(early.momentary! + 23) <= 0.1 && early.shortTerm == nil)
        var frame = try player.frame(at: 3.5, previous: 3.4)
        #expect(abs(frame.momentary! + 23) <= 0.1 && abs(frame.shortTerm! + 23) <= 0.1)
        frame = try player.frame(at: 7.5, previous: 3.5)  // a seek forward
        #expect(abs(frame.momentary! + 23) <= 0.1 && abs(frame.shortTerm! + 23) <= 0.1)
        frame = try player.frame(at: 2, previous: 7.5)  // and back, before 3 s
        #expect(abs(frame.momentary! + 23) <= 0.1 && frame.shortTerm == nil)
        let line = try #require(JSONSerialization.jsonObject(with: Data(frame.jsonLine().utf8)) as? [String: Any])
        #expect(abs((line["momentary_lufs"] as? Double ?? 0) + 23) <= 0.1 && line["short_term_lufs"] is NSNull, "\(line)")
        #expect(frame.csvHeader().prefix(3) == ["time_s", "momentary_lufs", "short_term_lufs"] && frame.csvFields()[2] == "")
    }

    @Test("record: a half-scale 1 kHz sine in one of two channels reads -9.03 LUFS (-6.02 dBFS, one channel: -3.01) once the windows are full")
    func recordFrames() throws {
        let frames = Int(3.5 * 48_000)
        var bytes: [UInt8] = []
        for index in 0..<frames {
            let left = Int16((16_384 * sin(2 * .pi * 1000 * Double(index) / 48_000)).rounded())
            withUnsafeBytes(of: left.littleEndian) { bytes += $0 }
            bytes += [0, 0]
        }
        let input = open(scratch.write("input.raw", bytes), O_RDONLY)
        defer { close(input) }
        let recorder = try Recorder(
            path: scratch.file("take.wav"), source: .descriptor(input), format: .s16le, sampleRate: 48_000, channels: 2, overwrite: false, fftSize: 1024,
            bands: nil)
        var seen: [LiveFrame] = []
        _ = try recorder.run(duration: nil, framesPerSecond: 10) { frame, _, _ in
            seen.append(frame)
            return true
        }
        #expect(seen.count == 35)
        #expect(seen[2].momentary == nil && abs(seen[3].momentary! + 9.03) <= 0.1, "0.4 s: the first full momentary window")
        #expect(seen[28].shortTerm == nil && abs(seen[29].shortTerm! + 9.03) <= 0.1, "3.0 s: the first full short-term window")
        let screen = LiveScreen.loudnessLine(seen[34], shown: seen[34].channelCount)
        #expect(screen == "loudness  M -9.0 LUFS  S -9.0 LUFS", "\(screen)")
    }
}
