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

    /// A 1 kHz sine at amplitude 0.4 with harmonics of the given (order, amplitude relative to the
    /// fundamental): its THD is √(Σ relative²) exactly.
    func distortedSine(_ harmonics: [(order: Double, relative: Double)], seconds: Double = 2) -> [Double] {
        (0..<Int(seconds * 48_000)).map { n in
            let phase = 2 * Double.pi * 1000 * Double(n) / 48_000
            return 0.4 * (sin(phase) + harmonics.reduce(0) { $0 + $1.relative * sin($1.order * phase) })
        }
    }

    @Test(
        "a sine with 0.1 %, 10 % and 30 % THD reads its analytic THD",
        arguments: [
            [(3.0, 0.001)], [(2.0, 0.06), (3.0, 0.08)], [(2.0, 0.2), (3.0, 0.2), (5.0, 0.1)],
        ])
    func analyticTHD(harmonics: [(Double, Double)]) async throws {
        let expected = harmonics.reduce(0) { $0 + $1.1 * $1.1 }.squareRoot()
        let path = floatWAV(scratch, "thd-\(expected).wav", distortedSine(harmonics.map { (order: $0.0, relative: $0.1) }))
        let distortion = try #require(try await analyse(path).overall.distortion, "THD \(expected * 100) %: a tone, so figures")
        #expect(abs(distortion.thd - expected) <= 0.005 * expected, "THD \(distortion.thd * 100) %, expected \(expected * 100) %")
        #expect(abs(distortion.fundamental - 1000) < 0.1)
        #expect(distortion.thdPlusNoise >= distortion.thd)
    }

    @Test("a sine in white noise at 20 dB SNR: figures, and SNR 20.8 dB in the 20 Hz–20 kHz band")
    func noisyTone() async throws {
        var generator = SeededGenerator(seed: 21)
        // Gaussian noise (Box–Muller) with a tenth of the sine's RMS: 20 dB SNR over 0–24 kHz. The
        // band holds 19 980 / 24 000 of the noise's power, so SNR reads 20 + 0.80 dB there.
        let sineRMS = 0.4 / 2.squareRoot()
        let samples = distortedSine([]).map { value -> Double in
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator), u2 = Double.random(in: 0..<1, using: &generator)
            return value + sineRMS / 10 * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        }
        let distortion = try #require(try await analyse(floatWAV(scratch, "snr20.wav", samples)).overall.distortion)
        let expected = 20 + 10 * log10(24_000.0 / 19_980)
        #expect(abs(distortion.snr - expected) < 0.5, "SNR \(distortion.snr) dB")
        #expect(abs(distortion.sinad - expected) < 0.5, "SINAD \(distortion.sinad) dB")
    }

    @Test("a tone whose pitch wobbles ±20 Hz five times a second carries the band's power but is not steady: no figures; ±2 Hz still gets them")
    func unsteadyTone() async throws {
        func vibrato(_ deviation: Double) -> [Double] {
            (0..<144_000).map { n in
                let t = Double(n) / 48_000
                return 0.4 * sin(2 * Double.pi * 1000 * t + deviation / 5.5 * sin(2 * Double.pi * 5.5 * t))
            }
        }
        let wobbling = try await analyse(floatWAV(scratch, "vibrato20.wav", vibrato(20)))
        let tone = try #require(wobbling.overall.tones.first)
        let share = wobbling.spectrum!.meanSquare()[0][tone.bin - 8...tone.bin + 8].reduce(0, +) / wobbling.spectrum!.meanSquare()[0].reduce(0, +)
        #expect(share > 0.95, "the averaged tone holds \(share) of the power: dominance alone would pass it")
        #expect(wobbling.overall.distortion == nil)
        #expect(try await analyse(floatWAV(scratch, "vibrato2.wav", vibrato(2))).overall.distortion != nil)
    }

    @Test("distortion figures of a tone over three chunks are identical with 1, 2 and 5 workers")
    func workerCountDoesNotChangeDistortion() async throws {
        let path = floatWAV(scratch, "thd-long.wav", distortedSine([(2, 0.01), (3, 0.005)], seconds: 25))
        let reference = try #require(try await analyse(path, workers: 1).overall.distortion)
        for workers in [2, 5] {
            #expect(try await analyse(path, workers: workers).overall.distortion == reference, "\(workers) workers")
        }
    }

    /// espeak-ng's 22.05 kHz speech resampled by sox to `rate`.
    func speech(_ words: String, voice: String, pitch: Int, rate: Int) throws -> String {
        let spoken = scratch.file("\(voice)-\(pitch)-\(words.count).wav"), resampled = scratch.file("\(voice)-\(pitch)-\(words.count)-\(rate).wav")
        let made = try SignalPathTestSupport.run(try #require(which("espeak-ng")), ["-v", voice, "-p", String(pitch), "-w", spoken, words])
        try #require(made.status == 0, "espeak-ng: \(made.stderr)")
        let converted = try SignalPathTestSupport.run(try #require(which("sox")), [spoken, "-r", String(rate), resampled])
        try #require(converted.status == 0, "sox: \(converted.stderr)")
        return resampled
    }

    @Test("espeak-ng speech at 44.1 and 48 kHz has no distortion figures, even words whose pitch stands out as a tone", arguments: [44_100, 48_000])
    func speechHasNoDistortion(rate: Int) async throws {
        // High-pitched single words: their fundamental carries 52–60 % of the power, which the
        // earlier rule (more than half) took for a distorted tone (THD 20–80 %, ENOB ≈ 0).
        for (words, voice) in [("moon", "en+f4"), ("you", "en-us"), ("two", "en-us"), ("me", "en+f4")] {
            let result = try await analyse(try speech(words, voice: voice, pitch: 75, rate: rate))
            #expect(!result.overall.tones.isEmpty, "'\(words)': a tone stands out, so the rule is what decides")
            #expect(result.overall.distortion == nil, "'\(words)' at \(rate) Hz: THD \(result.overall.distortion.map { $0.thd * 100 } ?? 0) %")
        }
        let sentence = try await analyse(try speech("The quick brown fox jumps over the lazy dog.", voice: "en", pitch: 50, rate: rate))
        #expect(sentence.overall.distortion == nil && sentence.channels[0].spectral.distortion == nil)
    }

    @Test("a chord, white noise and pink noise have no distortion figures")
    func chordAndNoise() async throws {
        let chord = (0..<96_000).map { n in [261.63, 329.63, 392.0].reduce(0.0) { $0 + 0.2 * sin(2 * Double.pi * $1 * Double(n) / 48_000) } }
        let white = Signals.noise(count: 96_000, amplitude: 0.5, seed: 3)
        for path in [
            floatWAV(scratch, "chord.wav", chord), floatWAV(scratch, "white-noise.wav", white),
            repositoryRoot + "/Samples/pink-noise-seed1-48k-s16.wav", repositoryRoot + "/Samples/chord-a-major-44k1-stereo.ogg",
        ] {
            let result = try await analyse(path)
            #expect(result.overall.distortion == nil, "\(path)")
            #expect(result.channels.allSatisfy { $0.spectral.distortion == nil }, "\(path)")
        }
    }

    @Test(
        "distortion at sample rates whose bins are wider than the audio band, or that have no audio band: nil, no crash",
        arguments: [1, 39, 44_100, 1 << 24, Int(Int32.max), Int(UInt32.max)])
    func distortionAtAbsurdRates(rate: Int) {
        let parameters = AnalysisSettings().spectrum
        let bins = parameters.fftSize / 2 + 1
        let width = Double(rate) / Double(parameters.fftSize)
        // A lone tone in the middle of the band, in the bin that holds it (the last bin when the bins are wider).
        let band = Distortion.band(sampleRate: rate)
        let frequency = (band.lowerBound + band.upperBound) / 2
        let bin = min(bins - 1, Int((frequency / width).rounded()))
        var meanSquare = [Double](repeating: 1e-12, count: bins)
        meanSquare[bin] = 1
        var strongest = [Double](repeating: 0, count: bins)
        strongest[bin] = 1
        let spectrum = PowerSpectrum(
            path: "x", sampleRate: rate, frames: 0..<Int64(parameters.windowSize * 4), parameters: parameters, windowSum: 1, windowSumOfSquares: 1,
            segments: 7, channelNames: ["mono"], power: [meanSquare])
        let peak = SpectralPeak(channel: 0, bin: bin, frequency: frequency, level: 0, note: nil)
        let distortion = Distortion(meanSquare: meanSquare, strongestBins: strongest, spectrum: spectrum, peak: peak, highestHarmonic: 10)
        if let inBand = Distortion.bins(sampleRate: rate, fftSize: parameters.fftSize) {
            #expect(band.contains(Double(inBand.lowerBound) * width) && band.contains(Double(inBand.upperBound) * width))
        } else {
            #expect(distortion == nil, "no bin centre in the band at \(rate) Hz")
        }
        if rate == 44_100 { #expect(distortion != nil, "a lone steady tone at \(frequency) Hz") }
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
