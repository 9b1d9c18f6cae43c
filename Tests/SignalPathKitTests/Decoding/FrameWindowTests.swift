import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("FrameWindow")
struct FrameWindowTests {
    let scratch = ScratchDirectory("frame-window")

    /// Loads at seeded random places and lengths, some beyond any window before (the window takes
    /// a larger buffer and keeps the frames it shares with the last load), some shorter than the
    /// last and then overlapping it (which once appended frames from past the reader's gap),
    /// against the samples the file was built from (16-bit stereo, written by `PCMFileBuilder`).
    @Test("seeded random loads, growing and overlapping, give the file's samples")
    func randomLoads() throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: 8000)
        let frames = 40_000
        let values = (0..<frames * 2).map { Double(($0 * 7919) % 65_536 - 32_768) / 32_768 }
        let path = scratch.write("codes.wav", builder.file(samples: values))
        let expected = values.map { builder.expectedSample(for: $0) }
        let window = FrameWindow(reader: try AudioFile.open(path).makeReader(), capacity: 16)
        var random = SeededGenerator(seed: 7)
        var grew = 0, overlapped = 0, previous = "nothing"
        for _ in 0..<300 {
            let start = Int64.random(in: 0..<Int64(frames), using: &random)
            // Mostly a step ahead of the last load (overlapping it), sometimes a jump.
            let from = Bool.random(using: &random) && window.start >= 0 ? min(window.start + Int64(window.filled / 2), Int64(frames - 1)) : start
            let length = Int.random(in: 1...(Bool.random(using: &random) ? 64 : 6_000), using: &random)
            let grows = length * 2 > window.samples.count
            if grows { grew += 1 }
            if from > window.start && from < window.start + Int64(window.filled) { overlapped += 1 }
            let got = try window.load(from..<from + Int64(length))
            #expect(got == min(length, frames - Int(from)))
            let first = Int(from) * 2
            let difference = firstBitDifference(Array(window.samples[0..<got * 2]), Array(expected[first..<first + got * 2]))
            #expect(difference == nil, "load \(from) + \(length) after \(previous): \(difference ?? "")")
            previous = "\(from) + \(length)\(grows ? " (grew)" : "")"
        }
        #expect(grew >= 3 && overlapped >= 50, "grew \(grew) times, overlapped \(overlapped)")
    }
}
