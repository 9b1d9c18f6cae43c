import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Analysis: tones, distortion, spectral summary")
struct SpectralAnalysisTests {
    let scratch = ScratchDirectory("analysis-spectral")

    @Test("a 1 s 997 Hz tone at 48 kHz is found within 0.1 Hz, at its level")
    func toneFrequency() async throws {
        let result = try await analyse(floatWAV(scratch, "997.wav", sine(997, dbfs: -6.0206, seconds: 1)))
        let tone = try #require(result.overall.tones.first)
        #expect(abs(tone.frequency - 997) < 0.1)
        #expect(abs(tone.level - -6.0206) < 0.05)
        #expect(tone.note?.name == "B5")
    }

    @Test("a sine with 1 % second and 0.5 % third harmonics: THD 1.118 % ± 0.02")
    func harmonicDistortion() async throws {
        let frames = 96_000
        let samples = (0..<frames).map { n -> Double in
            let t = 2 * Double.pi * 1000 * Double(n) / 48_000
            return 0.5 * (sin(t) + 0.01 * sin(2 * t) + 0.005 * sin(3 * t))
        }
        let distortion = try #require(try await analyse(floatWAV(scratch, "thd.wav", samples)).overall.distortion)
        #expect(abs(distortion.thd * 100 - 1.118) <= 0.02, "THD \(distortion.thd * 100) %")
        #expect(abs(distortion.fundamental - 1000) < 0.1)
        #expect(distortion.thdPlusNoise >= distortion.thd)
        #expect(distortion.harmonicsCounted == 9)
    }

    @Test("16-bit sine: SINAD near the quantisation limit (≈ 98 dB for a full-scale tone), ENOB near 16")
    func quantisationNoise() async throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 48_000)
        var generator = SeededGenerator(seed: 11)
        // TPDF dither makes the error noise-like; a −1 dBFS tone at 997 Hz.
        let samples = sine(997, dbfs: -1, seconds: 2).map { value -> Double in
            let dither = Double.random(in: -0.5..<0.5, using: &generator) + Double.random(in: -0.5..<0.5, using: &generator)
            return (value * 32768 + dither).rounded() / 32768
        }
        let distortion = try #require(try await analyse(scratch.write("q16.wav", builder.file(samples: samples))).overall.distortion)
        // 6.02·16 + 1.76 = 98.1 dB for an undithered full-scale sine; TPDF dither triples the noise
        // power (−4.8 dB), the −1 dB level and the 20 kHz of 24 kHz bandwidth (+0.8 dB) move it a little.
        #expect(distortion.sinad > 91 && distortion.sinad < 95, "SINAD \(distortion.sinad) dB")
        #expect(distortion.enob > 14.8 && distortion.enob < 15.5)
    }

    @Test("white noise low-passed at 16 kHz: bandwidth ≈ 16 kHz; flatness near 1 for white noise")
    func bandwidth() async throws {
        let noise = Signals.noise(count: 480_000, amplitude: 0.5, seed: 5)
        let white = try await analyse(floatWAV(scratch, "white.wav", noise))
        #expect(white.overall.summary!.flatness > 0.5)
        #expect(abs(white.overall.summary!.centroid - 12_000) < 300, "white noise: centroid at the middle of the band")
        // An ideal low-pass: zero every DFT bin above 16 kHz.
        let path = scratch.file("lowpass.wav")
        let script =
            "import numpy as np, soundfile as sf\n"
            + "rng = np.random.default_rng(5); x = rng.uniform(-0.5, 0.5, 480000)\n"
            + "X = np.fft.rfft(x); X[np.fft.rfftfreq(len(x), 1/48000) > 16000] = 0\n"
            + "sf.write('\(path)', np.fft.irfft(X, len(x)), 48000, subtype='FLOAT')\n"
        let run = try SignalPathTestSupport.run("/usr/bin/env", ["python3", "-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        let lowpassed = try await analyse(path)
        #expect(abs(lowpassed.overall.summary!.bandwidth - 16_000) < 100, "bandwidth \(lowpassed.overall.summary!.bandwidth) Hz")
        #expect(white.overall.summary!.bandwidth > 23_000)
    }
}
