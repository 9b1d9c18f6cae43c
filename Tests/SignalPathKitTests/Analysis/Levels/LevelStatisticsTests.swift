import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit
import SignalPathAVX2

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

    @Test("clipped samples are the samples of runs of at least 3 at full scale, counted across chunk boundaries; runs under 10 ms apart are one event")
    func clipping() async throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 48_000)
        var samples = sine(100, dbfs: -20, seconds: 12)
        let full = 32767.0 / 32768
        // Runs of 1, 2 (not clipping), 3, 7 and one of 10 across the chunk boundary at 524 288,
        // with one of 4 starting 200 samples (4.2 ms) after it: the same clipping event.
        for (start, length) in [(1000, 1), (2000, 2), (3000, 3), (40_000, 7), (524_283, 10), (524_493, 4)] {
            for index in start..<start + length { samples[index] = index % 2 == 0 ? full : -1 }
        }
        let path = scratch.write("clips.wav", builder.file(samples: samples))
        let result = try await analyse(path).channels[0]
        #expect(result.clippedSamples == 24)
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

    @Test(
        "statistics of random splits, merged, equal a direct model of every field (both the block and the per-sample paths)",
        arguments: [1, 2, 3])
    func mergeModel(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let rules = LevelStatistics.Rules(fullScale: 1, minimumClipRun: 3, clipEventGap: 40, silenceThreshold: 0.01)
        for round in 0..<60 {
            let count = Int.random(in: 1..<3000, using: &generator)
            // Stretches of one kind, so that whole blocks (`Pass.blockSize`, 128 samples) of quiet,
            // loud, clipped and silent audio occur, and now and then a NaN.
            var samples: [Float] = []
            while samples.count < count {
                let kind = Int.random(in: 0..<7, using: &generator)
                for _ in 0..<min(count - samples.count, Int.random(in: 1..<400, using: &generator)) {
                    switch kind {
                    case 0: samples.append(Bool.random(using: &generator) ? 1 : -1)
                    // Clipping in bursts: runs of 1 to 5 full-scale samples, 1 to 60 samples apart,
                    // so that runs fall on both sides of the 40-sample event gap.
                    case 6 where Int.random(in: 0..<12, using: &generator) < 3: samples.append(1)
                    case 6: samples.append(Int.random(in: 0..<20, using: &generator) == 0 ? 1 : 0.5)
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
            // Clipping over the finite samples: runs of 3 or more, a run starting less than 40
            // samples after the previous one ended joining its event.
            var clipped: Int64 = 0, run: Int64 = 0, events: Int64 = 0, lastEnd: Int?
            for (position, sample) in (finite.map(\.element) + [0]).enumerated() {
                if abs(sample) >= 1 {
                    run += 1
                } else {
                    if run >= 3 {
                        clipped += run
                        if lastEnd.map({ position - Int(run) - $0 >= 40 }) ?? true { events += 1 }
                        lastEnd = position
                    }
                    run = 0
                }
            }
            let peak = finite.map { abs($0.element) }.max() ?? 0
            let crossings = zip(finite, finite.dropFirst()).filter { ($0.element < 0) != ($1.element < 0) }.count
            let audible = finite.filter { abs($0.element) >= 0.01 }.map(\.offset)
            let lowestBit =
                finite.filter { $0.element != 0 }.map { value -> Int in
                    let bits = value.element.bitPattern & 0x7FFF_FFFF
                    let exponent = Int(bits >> 23)
                    return max(exponent, 1) - 150 + ((bits & 0x7F_FFFF) | (exponent != 0 ? 0x80_0000 : 0)).trailingZeroBitCount
                }.min() ?? .max
            #expect(merged.clippedSamples == clipped)
            #expect(merged.clipEvents == events, "round \(round)")
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

    @Test("the integer PCM path of the bits-in-use search agrees with the generic one, and declines blocks it cannot read")
    func integerLowestBitModel() {
        var generator = SeededGenerator(seed: 23)
        var answered = 0, declined = 0
        for round in 0..<3000 {
            let bits = [8, 16, 20, 24][round % 4]
            let scale = Float(1 << (bits - 1))
            // Integer samples of that depth, padded now and then (their low bits zero), with zeros,
            // and in some blocks one value the quick path must decline: full scale or finer bits.
            let padding = Int.random(in: 0...3, using: &generator)
            var block = (0..<LevelStatistics.Pass.blockSize).map { _ -> Float in
                guard Int.random(in: 0..<8, using: &generator) > 0 else { return 0 }
                let code = (Int.random(in: -(1 << (bits - 1))..<(1 << (bits - 1)), using: &generator) >> padding) << padding
                return Float(code) / scale
            }
            switch round % 5 {
            case 0: block[Int.random(in: 0..<block.count, using: &generator)] = Bool.random(using: &generator) ? 1 : -1
            case 1: block[Int.random(in: 0..<block.count, using: &generator)] = Float.random(in: -0.9..<0.9, using: &generator)
            case 2: block[Int.random(in: 0..<block.count, using: &generator)] = 0x1p-30
            default: break
            }
            block.withUnsafeBufferPointer { samples in
                let generic = LevelStatistics.Pass.lowestBit(samples.baseAddress!)
                let exact = samples.allSatisfy { $0 == 0 || (abs($0) < 1 && ($0 * 0x1p23).rounded() == $0 * 0x1p23) }
                if let quick = LevelStatistics.Pass.integerLowestBit(samples.baseAddress!) {
                    #expect(exact && quick == generic, "round \(round): \(quick) against \(generic)")
                    answered += 1
                } else {
                    #expect(!exact, "round \(round): declined a block of integer samples")
                    declined += 1
                }
            }
        }
        #expect(answered > 1000 && declined > 1000, "\(answered) answered, \(declined) declined")
    }

    @Test("a block summarised by the AVX2 build gives the baseline build's bits", .enabled(if: LevelStatistics.Pass.wide))
    func wideBlockIsExact() {
        var generator = SeededGenerator(seed: 41)
        for round in 0..<2000 {
            // Signed zeros, sign runs and wide ranges: the extremes' ties and every lane's sums.
            let block = (0..<LevelStatistics.Pass.blockSize).map { _ -> Float in
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: return Bool.random(using: &generator) ? 0 : -0.0
                case 1: return Float.random(in: -1...1, using: &generator)
                case 2: return Float.random(in: -1e-6...1e-6, using: &generator)
                default: return Float(Int.random(in: -32768..<32768, using: &generator)) / 32768 * (round % 2 == 0 ? 1 : 3)
                }
            }
            block.withUnsafeBufferPointer { samples in
                let narrow = LevelBlock.summarize(samples.baseAddress!, count: LevelStatistics.Pass.blockSize)
                let wide = LevelBlockAVX2.summarize(samples.baseAddress!, count: LevelStatistics.Pass.blockSize)
                let same =
                    narrow.lowest.bitPattern == wide.lowest.bitPattern && narrow.highest.bitPattern == wide.highest.bitPattern
                    && (0..<4).allSatisfy { narrow.sums[$0].bitPattern == wide.sums[$0].bitPattern && narrow.squares[$0].bitPattern == wide.squares[$0].bitPattern }
                    && narrow.changes == wide.changes
                #expect(same, "round \(round): \(narrow) against \(wide)")
                // And the four-at-a-time loop against a direct count of sign changes after the first four.
                let changes = (4..<samples.count).filter { (samples[$0] < 0) != (samples[$0 - 1] < 0) }.count
                #expect(narrow.changes == changes, "round \(round)")
            }
        }
    }
}
