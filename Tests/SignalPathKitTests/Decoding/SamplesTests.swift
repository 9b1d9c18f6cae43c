import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// The bundled samples hold what Samples/README.md says they hold.
@Suite("Samples")
struct SamplesTests {
    func sample(_ name: String) throws -> AudioFile {
        try AudioFile.open("\(repositoryRoot)/Samples/\(name)")
    }

    /// `round(x · 2^(bits−1)) / 2^(bits−1)` with numpy's half-to-even rounding.
    func quantized(_ value: Double, bits: Int) -> Float {
        let full = Double(1 << (bits - 1))
        return Float(min(max((value * full).rounded(.toNearestOrEven), -full), full - 1) / full)
    }

    @Test("the 1 kHz sine WAV and RF64 hold 0.5·sin(2π·1000·n/48000) exactly, with their tags")
    func sine() throws {
        let expected = (0..<96_000).map { quantized(0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48_000), bits: 16) }
        let wav = try sample("sine-1k-48k-s16-mono.wav")
        #expect(
            wav.format
                == AudioFormat(
                    container: .wav, sampleFormat: .pcm(bits: 16, signed: true),
                    sampleRate: 48_000, channels: 1, frames: 96_000))
        #expect(firstDifference(try wav.readFrames(0..<96_000), expected) == nil)
        #expect(
            wav.metadata == [
                MetadataEntry(key: "title", value: "1 kHz sine, -6.02 dBFS"),
                MetadataEntry(key: "artist", value: "signalpath samples"),
            ])
        let rf64 = try sample("sine-1k-48k-s16-mono.rf64")
        #expect(rf64.format.container == .rf64 && rf64.format.frames == 12_000)
        #expect(firstDifference(try rf64.readFrames(0..<12_000), Array(expected.prefix(12_000))) == nil)
    }

    @Test("the stereo file has 440 Hz left and 880 Hz right")
    func stereo() throws {
        let file = try sample("stereo-440L-880R-44k1-s16.wav")
        #expect(file.format.channels == 2 && file.format.frames == 44_100 && file.format.sampleRate == 44_100)
        let expected = (0..<44_100).flatMap { n in
            [440.0, 880.0].map { quantized(0.5 * sin(2 * Double.pi * $0 * Double(n) / 44_100), bits: 16) }
        }
        #expect(firstDifference(try file.readFrames(0..<44_100), expected) == nil)
    }

    @Test("the 24-bit FLAC chirp matches its formula to the last bit, or within one LSB where libm rounds differently")
    func chirp() throws {
        let file = try sample("chirp-log-20-20k-48k-s24.flac")
        #expect(file.format.container == .flac && file.format.sampleFormat == .pcm(bits: 24, signed: true))
        let samples = try file.readFrames(0..<96_000)
        #expect(samples.count == 96_000)
        let ratio = 20_000.0 / 20.0, duration = 2.0
        var worst: Float = 0
        for (n, sample) in samples.enumerated() {
            let t = Double(n) / 48_000
            let phase = 2 * Double.pi * 20 * duration / log(ratio) * (pow(ratio, t / duration) - 1)
            worst = max(worst, abs(sample - quantized(0.5 * cos(phase - Double.pi / 2), bits: 24)))
        }
        #expect(worst <= 0x1p-23)
    }

    @Test("the tone step changes from 500 Hz to 1 kHz at 2 s")
    func toneStep() throws {
        let samples = try sample("tone-step-500-1k-48k-s16.wav").readFrames(0..<192_000)
        for n in [0, 12_345, 95_999] {
            #expect(samples[n] == quantized(0.5 * sin(2 * Double.pi * 500 * Double(n) / 48_000), bits: 16))
        }
        for n in [96_000, 150_001, 191_999] {
            #expect(samples[n] == quantized(0.5 * sin(2 * Double.pi * 1000 * Double(n) / 48_000), bits: 16))
        }
    }

    @Test("pink noise has RMS 0.1 and power falling as 1/f")
    func pinkNoise() throws {
        let samples = try sample("pink-noise-seed1-48k-s16.wav").readFrames(0..<96_000).map(Double.init)
        let rms = sqrt(samples.reduce(0) { $0 + $1 * $1 } / Double(samples.count))
        #expect(abs(20 * log10(rms) - -20) < 0.01)
        // Mean power of 40 DFT bins (0.5 Hz apart) from 250 Hz and from 4 kHz: for power ∝ 1/f the
        // ratio is 4000/250 = 16, 12.04 dB (±3 dB covers the spread of 40 noisy bins).
        func meanBinPower(from frequency: Double) -> Double {
            let first = Int(frequency * 2)
            return (first..<first + 40).reduce(0.0) { total, k in
                var re = 0.0, im = 0.0
                for (n, sample) in samples.enumerated() {
                    let angle = 2 * Double.pi * Double(k) * Double(n) / Double(samples.count)
                    re += sample * cos(angle)
                    im -= sample * sin(angle)
                }
                return total + (re * re + im * im) / 40
            }
        }
        let ratioDB = 10 * log10(meanBinPower(from: 250) / meanBinPower(from: 4000))
        #expect(abs(ratioDB - 12.04) < 3, "power per bin at 250 Hz vs 4 kHz: \(ratioDB) dB")
    }

    @Test("silence is all zeros; the lossy files open with their stated shape")
    func silenceAndLossy() throws {
        let silence = try sample("silence-48k-f32-stereo.wav")
        #expect(silence.format.sampleFormat == .float(bits: 32) && silence.format.channels == 2)
        #expect(try silence.readFrames(0..<24_000).allSatisfy { $0 == 0 })
        let ogg = try sample("chord-a-major-44k1-stereo.ogg")
        #expect(ogg.format.sampleFormat == .compressed(codec: "vorbis") && ogg.format.frames == 132_300)
        let opus = try sample("tone-a4-48k.opus")
        #expect(opus.format.sampleFormat == .compressed(codec: "opus") && opus.format.frames == 96_000)
        let peak = try opus.readFrames(0..<96_000).map(abs).max() ?? 0
        #expect(abs(20 * log10(Double(peak)) - -12.04) < 0.5)
    }
}
