import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// Formats libsndfile decodes, made from a known WAV by independent encoders (sox, ffmpeg).
@Suite("Compressed and other formats")
struct CompressedFormatTests {
    let scratch = ScratchDirectory("formats")

    /// Encodes `wav` to `output` with sox or ffmpeg; these tools come from `make setup`.
    func convert(_ tool: String, _ arguments: [String]) throws {
        let executable = try #require(which(tool), "\(tool) is missing: run `make setup`")
        let result = try run(executable, arguments)
        #expect(result.status == 0, "\(tool) failed: \(result.stderr)")
    }

    func sineWAV(bits: PCMFileBuilder.Encoding, channels: Int, frames: Int = 96_000) -> (String, [Float], PCMFileBuilder) {
        let builder = PCMFileBuilder(container: .wav, encoding: bits, channels: channels, sampleRate: 48_000)
        let signal = testSignal(channels: channels, frames: frames, sampleRate: 48_000)
        let path = scratch.write("source-\(bits)-\(channels).wav", builder.file(samples: signal))
        return (path, signal.map(builder.expectedSample(for:)), builder)
    }

    /// RMS of a channel of interleaved samples, in dBFS re a full-scale sine.
    func rmsDB(_ samples: [Float], channels: Int, channel: Int, skip: Int = 0) -> Double {
        var sum = 0.0, count = 0
        for index in stride(from: skip * channels + channel, to: samples.count, by: channels) {
            sum += Double(samples[index]) * Double(samples[index])
            count += 1
        }
        return 10 * log10(sum / Double(count)) + 3.0103
    }

    @Test("FLAC decodes to exactly the samples that were encoded", arguments: [PCMFileBuilder.Encoding.signed16, .signed24])
    func flacIsLossless(encoding: PCMFileBuilder.Encoding) throws {
        let (wav, expected, _) = sineWAV(bits: encoding, channels: 2)
        let flac = scratch.file("lossless-\(encoding).flac")
        try convert("sox", [wav, flac])
        let file = try AudioFile.open(flac)
        #expect(file.format.container == .flac)
        #expect(file.format.sampleFormat == encoding.expectedSampleFormat)
        #expect(file.format.frames == 96_000 && file.format.channels == 2 && file.format.sampleRate == 48_000)
        #expect(!file.usesDirectPCM)
        #expect(firstBitDifference(try file.readFrames(0..<96_000), expected) == nil)
        // A range from the middle, after a seek inside the FLAC stream.
        #expect(firstBitDifference(try file.readFrames(50_000..<50_100), Array(expected[100_000..<100_200])) == nil)
    }

    @Test("CAF holds PCM exactly")
    func caf() throws {
        let (wav, expected, _) = sineWAV(bits: .signed16, channels: 1)
        let caf = scratch.file("tone.caf")
        try convert("sox", [wav, caf])
        let file = try AudioFile.open(caf)
        #expect(file.format.container == .caf)
        #expect(firstBitDifference(try file.readFrames(0..<96_000), expected) == nil)
    }

    /// A 1 kHz sine at −6.02 dBFS, 2 s, for the lossy codecs: their output is compared by level.
    func lossySource() throws -> String {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 48_000)
        let signal = Signals.sines(frequencies: [1000], amplitude: 0.5, sampleRate: 48_000, frames: 96_000)
        return scratch.write("lossy-source.wav", builder.file(samples: signal))
    }

    @Test("Ogg Vorbis keeps the length exactly and the level within 0.2 dB")
    func oggVorbis() throws {
        let ogg = scratch.file("tone.ogg")
        try convert("sox", [try lossySource(), ogg])
        let file = try AudioFile.open(ogg)
        #expect(file.format.container == .ogg && file.format.sampleFormat == .compressed(codec: "vorbis"))
        #expect(file.format.frames == 96_000)
        let samples = try file.readFrames(0..<96_000)
        #expect(samples.count == 96_000)
        #expect(abs(rmsDB(samples, channels: 1, channel: 0, skip: 4800) - -6.02) < 0.2)
    }

    @Test("Opus opens at 48 kHz with the length and level kept")
    func opus() throws {
        let opus = scratch.file("tone.opus")
        try convert("ffmpeg", ["-v", "error", "-y", "-i", try lossySource(), "-c:a", "libopus", "-b:a", "96k", opus])
        let file = try AudioFile.open(opus)
        #expect(file.format.container == .ogg && file.format.sampleFormat == .compressed(codec: "opus"))
        #expect(file.format.sampleRate == 48_000)
        let frames = try #require(file.format.frames)
        #expect(abs(frames - 96_000) <= 960, "Opus trims its pre-skip; \(frames) frames")
        let samples = try file.readFrames(0..<frames)
        #expect(abs(rmsDB(samples, channels: 1, channel: 0, skip: 4800) - -6.02) < 0.3)
    }

    @Test("MP3 opens with its rate and about its length")
    func mp3() throws {
        let mp3 = scratch.file("tone.mp3")
        try convert("ffmpeg", ["-v", "error", "-y", "-i", try lossySource(), "-c:a", "libmp3lame", "-b:a", "192k", mp3])
        let file = try AudioFile.open(mp3)
        #expect(file.format.container == .mpeg && file.format.sampleFormat == .compressed(codec: "mp3"))
        #expect(file.format.sampleRate == 48_000)
        let duration = try #require(file.format.duration)
        #expect(abs(duration - 2.0) < 0.1)
        let samples = try file.readFrames(0..<Int64(duration * 48_000))
        #expect(abs(rmsDB(samples, channels: 1, channel: 0, skip: 4800) - -6.02) < 0.3)
    }
}
