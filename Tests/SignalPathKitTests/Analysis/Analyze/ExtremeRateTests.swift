import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// `analyze` at any rate a header can hold: bounded work, finite numbers or null, and loudness only
/// where BS.1770's K-filter means something (`Loudness.measurableSampleRates`).
@Suite("Analysis at extreme sample rates")
struct ExtremeRateTests {
    let scratch = ScratchDirectory("extreme-rates")

    @Test(
        "a half-scale sine at an eighth of the rate: the same true peak at any rate, loudness from 3364 Hz to 2 822 400 Hz and null outside",
        arguments: [1, 7, 10, 11, 3363, 3364, 48_000, 2_822_400, 2_822_401, 1_000_000_000, 2_147_483_647])
    func rate(rate: Int) async throws {
        // 0.5 s (loudness needs 400 ms) up to 48 kHz, else 4800 frames.
        let frames = rate <= 48_000 ? max(4800, rate / 2) : 4800
        let samples = (0..<frames).map { 0.5 * sin(2 * Double.pi * Double($0) / 8) }
        let path = floatWAV(scratch, "rate-\(rate).wav", samples, sampleRate: rate)
        let file = try AudioFile.open(path)
        let analyzer = SignalAnalyzer(file: file, frames: 0..<Int64(frames))
        // The K-filter's settling (~0.19 s of audio: 4 × 10⁸ frames at 2 GHz) never exceeds the range.
        #expect(analyzer.settlingFrames <= frames)
        let result = try await analyzer.run(workers: 2)
        let channel = result.channels[0]
        // The true-peak FIR works in samples, not hertz: the same reading as at 48 kHz (where its
        // ripple at an eighth of the rate puts a half-scale sine a few hundredths of a dB over).
        let reference = try await analyse(floatWAV(scratch, "reference-\(rate).wav", Array(samples.prefix(4800))))
        #expect(channel.truePeak == reference.channels[0].truePeak, "\(channel.truePeak)")
        #expect(abs(channel.truePeak - -6.0206) < 0.1, "\(channel.truePeak)")
        #expect(abs(channel.peak - -6.0206) < 0.001)
        #expect(channel.rms.isFinite && channel.crest.isFinite)
        let loudness = [result.loudness.integrated, result.loudness.momentaryMax, result.loudness.shortTermMax, result.loudness.range]
        #expect(analyzer.measuresLoudness == Loudness.measurableSampleRates.contains(rate))
        if analyzer.measuresLoudness {
            if Double(frames) >= 0.4 * Double(rate) { #expect(result.loudness.integrated?.isFinite == true, "\(rate) Hz") }
        } else {
            #expect(loudness.allSatisfy { $0 == nil }, "\(rate) Hz: \(loudness)")
        }
        // A "100 ms" block is one frame below 10 Hz (and at 10): a quarter of the frames are 0.
        if rate <= 10 { #expect(result.silentFraction == 0.25) }
        // Bins 262 kHz wide leave none inside 20 Hz–20 kHz: no distortion figures (this crashed).
        if rate >= 1_000_000_000 { #expect(channel.spectral.distortion == nil && result.overall.distortion == nil) }
    }
}
