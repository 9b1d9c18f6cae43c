import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

func analyse(_ path: String, range: Range<Int64>? = nil, settings: AnalysisSettings = AnalysisSettings(),
             workers: Int = 2) async throws -> SignalAnalysis {
    let file = try AudioFile.open(path)
    return try await SignalAnalyzer(file: file, frames: range ?? 0..<file.format.frames!, settings: settings).run(workers: workers)
}

/// A sine of `seconds` at `dbfs` (peak level), one value per frame.
func sine(_ frequency: Double, dbfs: Double, seconds: Double, sampleRate: Int = 48_000, phase: Double = 0) -> [Double] {
    let amplitude = pow(10, dbfs / 20)
    return (0..<Int(seconds * Double(sampleRate))).map { amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(sampleRate) + phase) }
}

/// The same mono signal on both channels, interleaved.
func stereo(_ mono: [Double]) -> [Double] { mono.flatMap { [$0, $0] } }

@Suite("Analysis: levels")
struct LevelTests {
    let scratch = ScratchDirectory("analysis-levels")

    @Test("peak, its time, RMS, DC, extremes and zero crossings equal a direct computation over several chunks")
    func levelsMatchDirectComputation() async throws {
        var generator = SeededGenerator(seed: 7)
        let frames = 700_000  // > 2 chunks of stereo
        var samples: [Double] = []
        for frame in 0..<frames {
            let noise = Double.random(in: -0.2..<0.2, using: &generator)
            samples.append(0.05 + noise + 0.3 * sin(Double(frame) * 0.01))
            samples.append(-0.4 * sin(Double(frame) * 0.003) + noise / 4)
        }
        samples[2 * 654_321 + 1] = -0.93  // the right channel's peak, in the third chunk
        let path = floatWAV(scratch, "levels.wav", samples, channels: 2)
        let result = try await analyse(path)
        for channel in 0..<2 {
            let values = stride(from: channel, to: samples.count, by: 2).map { Double(Float(samples[$0])) }
            let peak = values.map(abs).max()!
            let peakFrame = values.firstIndex { abs($0) == peak }!
            let meanSquare = values.reduce(0) { $0 + $1 * $1 } / Double(frames)
            let crossings = zip(values, values.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
            let measured = result.channels[channel]
            #expect(measured.peak == 20 * log10(peak))
            #expect(measured.peakTime == Double(peakFrame) / 48_000)
            #expect(abs(measured.rms - 10 * log10(meanSquare)) < 1e-9)
            #expect(abs(measured.dcOffset - values.reduce(0, +) / Double(frames)) < 1e-12)
            #expect(measured.minimum == values.min()! && measured.maximum == values.max()!)
            #expect(measured.statistics.zeroCrossings == Int64(crossings))
            #expect(abs(measured.crest - (20 * log10(peak) - 10 * log10(meanSquare))) < 1e-9)
        }
        #expect(result.channels[1].peakTime == 654_321.0 / 48_000)
    }

    @Test("results are identical with 1, 2 and 5 workers")
    func workerCountDoesNotChangeResults() async throws {
        let noise = Signals.noise(count: 2 * 600_000, amplitude: 0.5, seed: 3)
        let path = floatWAV(scratch, "workers.wav", noise, channels: 2)
        let reference = try await analyse(path, workers: 1)
        for workers in [2, 5] {
            let other = try await analyse(path, workers: workers)
            #expect(JSONValue.object(other.jsonMembers) == JSONValue.object(reference.jsonMembers), "\(workers) workers")
        }
        #expect(reference.loudness.integrated != nil)
    }

    @Test("a full-scale sine: RMS −3.01 dBFS by the square reference, 0.00 by the sine reference")
    func rmsReferences() async throws {
        let path = floatWAV(scratch, "fs-sine.wav", sine(1000, dbfs: 0, seconds: 1))
        var settings = AnalysisSettings()
        #expect(abs(try await analyse(path, settings: settings).channels[0].rms - -3.0103) < 0.001)
        settings.rmsReference = .sine
        #expect(abs(try await analyse(path, settings: settings).channels[0].rms) < 0.001)
    }

    @Test("clipped samples are the samples of runs of at least 3 at full scale, counted across chunk boundaries")
    func clipping() async throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 48_000)
        var samples = sine(100, dbfs: -20, seconds: 12)
        let full = 32767.0 / 32768
        // Runs of 1, 2 (not clipping), 3, 7 and one of 10 across the chunk boundary at 524 288.
        for (start, length) in [(1000, 1), (2000, 2), (3000, 3), (40_000, 7), (524_283, 10)] {
            for index in start..<start + length { samples[index] = index % 2 == 0 ? full : -1 }
        }
        let path = scratch.write("clips.wav", builder.file(samples: samples))
        let result = try await analyse(path).channels[0]
        #expect(result.clippedSamples == 20)
        #expect(result.clipEvents == 3)
    }

    @Test("leading and trailing silence, silent fraction, and 16-bit audio in a 24-bit file uses 16 bits")
    func silenceAndBits() async throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed24, channels: 1, sampleRate: 48_000)
        let tone = sine(440, dbfs: -10, seconds: 2).map { ($0 * 32768).rounded() / 32768 }
        let samples = [Double](repeating: 0, count: 24_000) + tone + [Double](repeating: 0, count: 12_000)
        let result = try await analyse(scratch.write("padded.wav", builder.file(samples: samples)))
        let channel = result.channels[0]
        #expect(abs(channel.leadingSilence - 0.5) < 0.001)
        #expect(abs(channel.trailingSilence - 0.25) < 0.001)
        #expect(abs(channel.silentFraction! - 7.0 / 27) < 1e-9, "7 of 27 whole 100 ms blocks are silent")
        #expect(channel.effectiveBits == 16)
        #expect(abs(channel.noiseFloor! - (-10 - 3.0103)) < 0.01, "the quietest non-silent blocks are the tone's")
    }

    @Test("digital silence: levels −∞ and loudness absent, written as null")
    func digitalSilence() async throws {
        let path = floatWAV(scratch, "silence.wav", [Double](repeating: 0, count: 96_000), channels: 2)
        let result = try await analyse(path)
        #expect(result.loudness.integrated == nil && result.loudness.momentaryMax == nil && result.loudness.range == nil)
        #expect(result.channels[0].peak == -.infinity && result.channels[0].effectiveBits == nil)
        let json = JSONValue.object(result.jsonMembers).serialized()
        #expect(json.contains(#""integrated_lufs":null"#) && json.contains(#""peak_dbfs":null"#))
        #expect(!json.contains("nan") && !json.contains("inf"))
    }

    @Test("statistics of random splits, merged, equal a direct model of every field (both the block and the per-sample paths)",
          arguments: [1, 2, 3])
    func mergeModel(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let rules = LevelStatistics.Rules(fullScale: 1, minimumClipRun: 3, silenceThreshold: 0.01)
        for round in 0..<60 {
            let count = Int.random(in: 1..<3000, using: &generator)
            // Stretches of one kind, so that whole 64-sample blocks of quiet, loud, clipped and
            // silent audio occur, and now and then a NaN.
            var samples: [Float] = []
            while samples.count < count {
                let kind = Int.random(in: 0..<6, using: &generator)
                for _ in 0..<min(count - samples.count, Int.random(in: 1..<200, using: &generator)) {
                    switch kind {
                    case 0: samples.append(Bool.random(using: &generator) ? 1 : -1)
                    case 1: samples.append(0)
                    case 2: samples.append(Float.random(in: -0.005..<0.005, using: &generator))
                    case 3: samples.append(Float(Int.random(in: -32768..<32768, using: &generator)) / 32768)
                    case 4 where round % 7 == 0: samples.append(Int.random(in: 0..<50, using: &generator) == 0 ? .nan : 0.25)
                    default: samples.append(Float.random(in: -0.9..<0.9, using: &generator))
                    }
                }
            }
            var merged = LevelStatistics()
            var start = 0
            while start < count {
                let end = min(count, start + Int.random(in: 0..<800, using: &generator))
                var piece = LevelStatistics()
                samples.withUnsafeBufferPointer { _ = piece.accumulate(UnsafeBufferPointer(rebasing: $0[start..<end]), firstFrame: Int64(start), rules: rules) }
                merged.merge(piece)
                start = end
            }
            // The model: each field computed directly over the finite samples.
            let finite = samples.enumerated().filter { $0.element.isFinite }
            var clipped: Int64 = 0, run: Int64 = 0
            for (_, sample) in finite + [(0, 0)] {
                if abs(sample) >= 1 { run += 1 } else { if run >= 3 { clipped += run }; run = 0 }
            }
            let peak = finite.map { abs($0.element) }.max() ?? 0
            let crossings = zip(finite, finite.dropFirst()).filter { ($0.element < 0) != ($1.element < 0) }.count
            let audible = finite.filter { abs($0.element) >= 0.01 }.map(\.offset)
            let lowestBit = finite.filter { $0.element != 0 }.map { value -> Int in
                let bits = value.element.bitPattern & 0x7FFF_FFFF
                let exponent = Int(bits >> 23)
                return max(exponent, 1) - 150 + ((bits & 0x7F_FFFF) | (exponent != 0 ? 0x80_0000 : 0)).trailingZeroBitCount
            }.min() ?? .max
            #expect(merged.clippedSamples == clipped)
            #expect(merged.zeroCrossings == Int64(crossings))
            #expect(merged.peak == peak && merged.peakFrame == (peak > 0 ? Int64(finite.first { abs($0.element) == peak }!.offset) : nil))
            #expect(merged.firstAudibleFrame == audible.first.map(Int64.init) && merged.lastAudibleFrame == audible.last.map(Int64.init))
            #expect(merged.minimum == (finite.map(\.element).min() ?? .infinity) && merged.maximum == (finite.map(\.element).max() ?? -.infinity))
            #expect(merged.lowestBitExponent == lowestBit)
            #expect(merged.nonFiniteSamples == Int64(count - finite.count) && merged.frames == Int64(count))
            let squares = finite.reduce(0.0) { $0 + Double($1.element) * Double($1.element) }
            #expect(abs(merged.sumOfSquares - squares) <= 1e-9 * max(1, squares))
        }
    }
}

@Suite("Analysis: loudness and true peak (EBU Tech 3341 / 3342, BS.1770-4)")
struct LoudnessTests {
    let scratch = ScratchDirectory("analysis-loudness")

    /// Stereo 1 kHz sine at the given (level dBFS, seconds) steps.
    func steps(_ name: String, _ steps: [(Double, Double)]) -> String {
        floatWAV(scratch, name, stereo(steps.flatMap { sine(1000, dbfs: $0.0, seconds: $0.1) }), channels: 2)
    }

    @Test("Tech 3341 cases 1–2: a stereo 1 kHz sine at −23 and −33 dBFS reads −23.0 and −33.0 LUFS", arguments: [-23.0, -33.0])
    func steadySine(level: Double) async throws {
        let result = try await analyse(steps("sine\(Int(level)).wav", [(level, 20)]))
        #expect(abs(result.loudness.integrated! - level) <= 0.1)
        #expect(abs(result.loudness.momentaryMax! - level) <= 0.1)
        #expect(abs(result.loudness.shortTermMax! - level) <= 0.1)
    }

    @Test("Tech 3341 cases 3–5: stepped levels read −23.0 ± 0.1 LUFS")
    func steppedLevels() async throws {
        for (index, program) in [[(-36.0, 10.0), (-23, 60), (-36, 10)],
                                  [(-72.0, 10.0), (-36, 10), (-23, 60), (-36, 10), (-72, 10)],
                                  [(-26.0, 20.0), (-20, 20.1), (-26, 20)]].enumerated() {
            let result = try await analyse(steps("steps\(index).wav", program))
            #expect(abs(result.loudness.integrated! - -23) <= 0.1, "case \(index + 3): \(result.loudness.integrated!)")
        }
    }

    @Test("Tech 3342 cases 1–2: 20 s at −20 dBFS then 20 s at −30 (−15) read 10 (5) ± 1 LU")
    func loudnessRange() async throws {
        let wide = try await analyse(steps("lra10.wav", [(-20, 20), (-30, 20)]))
        #expect(abs(wide.loudness.range! - 10) <= 1)
        let narrow = try await analyse(steps("lra5.wav", [(-20, 20), (-15, 20)]))
        #expect(abs(narrow.loudness.range! - 5) <= 1)
    }

    @Test("5.1: the LFE is left out and the surrounds weigh +1.5 dB")
    func surroundWeights() async throws {
        let tone = sine(1000, dbfs: -20, seconds: 5)
        func layout(_ active: Int) -> [Double] { tone.flatMap { value in (0..<6).map { $0 == active ? value : 0 } } }
        let front = try await analyse(floatWAV(scratch, "front.wav", layout(0), channels: 6)).loudness.integrated!
        let lfe = try await analyse(floatWAV(scratch, "lfe.wav", layout(3), channels: 6)).loudness.integrated
        let surround = try await analyse(floatWAV(scratch, "surround.wav", layout(4), channels: 6)).loudness.integrated!
        #expect(lfe == nil)
        #expect(abs(surround - front - 10 * log10(1.41)) < 0.01)
    }

    @Test("an fs/4 sine at 45° phase: sample peak −3.01 dBFS, true peak about 0 dBTP")
    func interSamplePeak() async throws {
        let samples = (0..<48_000).map { sin(Double.pi / 2 * Double($0) + Double.pi / 4) }
        let result = try await analyse(floatWAV(scratch, "fs4.wav", stereo(samples), channels: 2))
        #expect(abs(result.channels[0].peak - -3.0103) < 0.01)
        #expect(abs(result.truePeak) < 0.3, "true peak \(result.truePeak) dBTP")
        #expect(abs(result.channels[1].truePeak - result.channels[0].truePeak) < 1e-9)
    }
}

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
        let script = "import numpy as np, soundfile as sf\n"
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
