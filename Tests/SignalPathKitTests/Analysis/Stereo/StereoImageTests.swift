import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit
import SignalPathAVX2

@Suite("Analysis: stereo image (correlation, delay, polarity, balance, mono loss)")
struct StereoImageTests {
    let scratch = ScratchDirectory("analysis-stereo")
    static let rate = 48_000

    /// Interleaves two equal-length channels.
    func interleave(_ left: [Double], _ right: [Double]) -> [Double] { zip(left, right).flatMap { [$0, $1] } }

    func noise(seconds: Double, seed: UInt64, amplitude: Double = 0.25) -> [Double] {
        Signals.noise(count: Int(seconds * Double(Self.rate)), amplitude: amplitude, seed: seed)
    }

    /// `signal` delayed by `samples` whole samples (zeros shifted in).
    func delayed(_ signal: [Double], by samples: Int) -> [Double] {
        samples >= 0 ? Array(repeating: 0, count: samples) + signal.dropLast(samples) : Array(signal.dropFirst(-samples)) + Array(repeating: 0, count: -samples)
    }

    /// Zero-lag Pearson correlation of the samples as stored (Float), in plain Double arithmetic.
    func pearson(_ left: [Double], _ right: [Double]) -> Double {
        let x = left.map { Double(Float($0)) }, y = right.map { Double(Float($0)) }
        let n = Double(x.count), mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for index in x.indices {
            sxy += (x[index] - mx) * (y[index] - my)
            sxx += (x[index] - mx) * (x[index] - mx)
            syy += (y[index] - my) * (y[index] - my)
        }
        return sxy / (sxx * syy).squareRoot()
    }

    func measure(_ name: String, _ left: [Double], _ right: [Double], encoding: PCMFileBuilder.Encoding = .float32, workers: Int = 2) async throws
        -> StereoImage
    {
        let builder = PCMFileBuilder(container: .wav, encoding: encoding, channels: 2, sampleRate: Self.rate)
        let path = scratch.write(name, builder.file(samples: interleave(left, right)))
        return try #require(try await analyse(path, workers: workers).stereo)
    }

    @Test("L = R (16-bit): correlation 1, aligned at lag 0, mono as stereo, no mono loss, balance 0")
    func identical() async throws {
        let signal = noise(seconds: 1, seed: 1)
        let image = try await measure("same.wav", signal, signal, encoding: .signed16)
        #expect(image.correlation == 1)
        #expect(image.delaySamples == 0)
        #expect(abs(image.alignedCorrelation! - 1) < 1e-4)
        #expect(image.polarityInverted == false)
        #expect(image.monoAsStereo == true)
        #expect(image.monoLoss == 0)
        #expect(image.balance == 0)
    }

    @Test("R = −L: correlation −1, polarity inverted, the mono sum is silence (no finite loss)")
    func inverted() async throws {
        let signal = noise(seconds: 1, seed: 2)
        let image = try await measure("inverted.wav", signal, signal.map { -$0 })
        #expect(image.correlation == -1)
        #expect(image.polarityInverted == true)
        #expect(image.delaySamples == 0)
        #expect(abs(image.alignedCorrelation! + 1) < 1e-4)
        #expect(image.monoLoss == nil)
        #expect(image.monoAsStereo == false)
    }

    @Test("R = L delayed by 12 samples: delay 12, aligned correlation 1, zero-lag correlation as numpy-style Pearson says (≈ 0)")
    func delayedTwelve() async throws {
        let signal = noise(seconds: 1, seed: 3)
        let right = delayed(signal, by: 12)
        let image = try await measure("delay12.wav", signal, right)
        #expect(abs(image.delaySamples! - 12) < 0.05, "\(image.delaySamples!)")
        #expect(image.alignedCorrelation! > 0.99)
        #expect(image.polarityInverted == false)
        #expect(abs(image.correlation! - pearson(signal, right)) < 1e-9)
        #expect(abs(image.correlation!) < 0.02)
        // Left leading: the other sign.
        let early = try await measure("delay-minus12.wav", signal, delayed(signal, by: -12))
        #expect(abs(early.delaySamples! + 12) < 0.05)
    }

    @Test("independent noises: correlation ≈ 0 (as Pearson computes it), no delay, mono loss 3.01 dB, balance ≈ 0")
    func independent() async throws {
        let left = noise(seconds: 1, seed: 4), right = noise(seconds: 1, seed: 5)
        let image = try await measure("independent.wav", left, right)
        #expect(abs(image.correlation! - pearson(left, right)) < 1e-9)
        #expect(abs(image.correlation!) < 0.02)
        #expect(image.delaySamples == nil)
        #expect(abs(image.alignedCorrelation!) < Self.alignmentCeiling)
        #expect(image.polarityInverted == false)
        #expect(abs(image.monoLoss! - 10 * log10(2)) < 0.1)
        #expect(abs(image.balance!) < 0.1)
        #expect(image.monoAsStereo == false)
    }
    static let alignmentCeiling = 0.1

    @Test(
        "fractional and odd delays of band-limited material (60 sinusoids to 15 kHz, delayed analytically) read to 0.05 samples",
        arguments: [7.3, -4.5])
    func fractionalDelay(delay: Double) async throws {
        var generator = SeededGenerator(seed: 6)
        let partials = (0..<60).map { _ in
            (Double.random(in: 100...15_000, using: &generator), Double.random(in: 0..<2 * .pi, using: &generator))
        }
        let frames = Self.rate / 2
        func signal(shift: Double) -> [Double] {
            (0..<frames).map { n in
                let t = (Double(n) - shift) / Double(Self.rate)
                return partials.reduce(0) { $0 + sin(2 * .pi * $1.0 * t + $1.1) } / 30
            }
        }
        let image = try await measure("fraction\(delay).wav", signal(shift: 0), signal(shift: delay))
        #expect(abs(image.delaySamples! - delay) < 0.05, "read \(image.delaySamples!) for \(delay)")
        #expect(image.alignedCorrelation! > 0.99)
    }

    @Test("balance: R at half the amplitude of L reads +6.02 dB; correlation 1; not mono as stereo")
    func balance() async throws {
        let signal = noise(seconds: 1, seed: 7)
        let image = try await measure("balance.wav", signal, signal.map { $0 / 2 })
        #expect(abs(image.balance! - 20 * log10(2)) < 0.001)
        #expect(abs(image.correlation! - 1) < 1e-12)
        #expect(image.monoAsStereo == false)
        // (1 + 1/4)/2 over ((1 + 1/2)/2)²: 10·log10(0.625 / 0.5625).
        #expect(abs(image.monoLoss! - 10 * log10(0.625 / 0.5625)) < 0.001)
    }

    @Test("5.1: the front pair (FL, FR) is measured, whatever the other channels hold; mono has no stereo section")
    func surroundFrontPair() async throws {
        let front = noise(seconds: 1, seed: 8)
        let right = delayed(front, by: 3).map { $0 / 2 }
        let others = (0..<4).map { noise(seconds: 1, seed: 20 + UInt64($0)) }
        let channels = [front, right] + others
        let samples = (0..<front.count).flatMap { frame in channels.map { $0[frame] } }
        let builder = PCMFileBuilder(container: .wavExtensible, encoding: .float32, channels: 6, sampleRate: Self.rate, channelMask: 0x3F)
        let result = try await analyse(scratch.write("surround.wav", builder.file(samples: samples)))
        let image = try #require(result.stereo)
        #expect(image.left == 0 && image.right == 1)
        #expect(abs(image.delaySamples! - 3) < 0.05)
        #expect(abs(image.balance! - 20 * log10(2)) < 0.1)
        let mono = try await analyse(floatWAV(scratch, "mono.wav", front))
        #expect(mono.stereo == nil)
    }

    @Test("the bundled Vorbis chord, whose right channel Samples/generate.py delays by 44 samples (1 ms): delay 44 through a lossy codec")
    func bundledChord() async throws {
        let image = try #require(try await analyse(repositoryRoot + "/Samples/chord-a-major-44k1-stereo.ogg").stereo)
        #expect(abs(image.delaySamples! - 44) < 0.1, "\(image.delaySamples!)")
        #expect(image.alignedCorrelation! > 0.99 && image.monoAsStereo == false)
    }

    @Test("the same figures, bit for bit, with 1 or 3 workers over several chunks")
    func workerIndependence() async throws {
        let left = noise(seconds: 4, seed: 9)
        let right = zip(delayed(left, by: 5), noise(seconds: 4, seed: 10)).map { 0.8 * $0 + 0.2 * $1 }
        let builder = PCMFileBuilder(container: .wav, encoding: .float32, channels: 2, sampleRate: Self.rate)
        let path = scratch.write("long.wav", builder.file(samples: interleave(left, right)))
        // 1024-point segments make chunks of 65 536 frames (1.37 s): three chunks and a part.
        var settings = AnalysisSettings()
        settings.spectrum = SpectrumParameters(fftSize: 1024, window: .kaiser(beta: 20), overlap: 0.5)
        let one = try await analyse(path, settings: settings, workers: 1).stereo
        let three = try await analyse(path, settings: settings, workers: 3).stereo
        #expect(one == three)
        #expect(abs(one!.delaySamples! - 5) < 0.05)
    }

    @Test("window autocorrelation: N − τ for a rectangle (stopping below a tenth of N), a Double sum for a seeded window")
    func windowAutocorrelation() {
        let rectangle = [Float](repeating: 1, count: 1000)
        let flat = StereoImage.windowAutocorrelation(rectangle, upTo: 2000)
        // N − τ ≥ 0.1·N up to τ = 900; the sum stops at the first lag below it.
        #expect(flat.count == 901)
        #expect(flat.enumerated().allSatisfy { $0.element == Double(1000 - $0.offset) })
        #expect(StereoImage.windowAutocorrelation(rectangle, upTo: 37).count == 38)

        var generator = SeededGenerator(seed: 19)
        let window = (0..<8195).map { _ in Float.random(in: 0.5...1, using: &generator) }
        let values = StereoImage.windowAutocorrelation(window, upTo: 480)
        #expect(values.count == 481)
        for lag in [0, 1, 7, 8, 9, 255, 480] {
            var model = 0.0
            for index in 0..<(window.count - lag) { model += Double(window[index]) * Double(window[index + lag]) }
            #expect(abs(values[lag] - model) <= 1e-5 * model, "lag \(lag): \(values[lag]) vs \(model)")
        }
    }

    @Test("the pair's frame sums: a Double sum of every frame within Float rounding, |L − R| exact, overflowing blocks in Double")
    func frameSums() {
        var generator = SeededGenerator(seed: 23)
        for count in [1, 7, 8, 9, 63, 64, 65, 200, 1001] {
            let left = (0..<count).map { _ in Float.random(in: -1...1, using: &generator) }
            var right = (0..<count).map { _ in Float.random(in: -1...1, using: &generator) }
            // A block whose squares overflow a Float, summed again in Double.
            if count > 100 { right[100] = 3e19 }
            var sums = StereoImage.Sums(bins: 1)
            left.withUnsafeBufferPointer { l in right.withUnsafeBufferPointer { r in sums.add(l, r) } }
            // Each sum against a Double sum of its terms, within Float rounding of the terms' magnitudes.
            let pairs = zip(left.map(Double.init), right.map(Double.init))
            let terms: [[Double]] = [
                pairs.map { $0.0 }, pairs.map { $0.1 }, pairs.map { $0.0 * $0.0 }, pairs.map { $0.1 * $0.1 },
                pairs.map { $0.0 * $0.1 }, pairs.map { ($0.0 + $0.1) * ($0.0 + $0.1) / 4 },
            ]
            let found = [sums.left, sums.right, sums.leftSquares, sums.rightSquares, sums.products, sums.monoSquares]
            for (value, parts) in zip(found, terms) {
                let expected = parts.reduce(0, +), magnitude = parts.reduce(0) { $0 + abs($1) }
                #expect(abs(value - expected) <= 1e-6 * magnitude, "\(count) frames: \(value) against \(expected)")
            }
            #expect(sums.rightSquares.isFinite && sums.monoSquares.isFinite)
            #expect(sums.largestDifference == zip(left, right).map { abs($0 - $1) }.max())
            #expect(sums.frames == Int64(count))
        }
    }

    @Test(
        "the pair's frame sums on AVX2 are the generic loop's bits, overflowing blocks and partial blocks included",
        .enabled(if: ProcessorFeatures.hasX86_64_v3))
    func frameSumsAVX2() {
        var generator = SeededGenerator(seed: 29)
        for count in [8, 16, 56, 64, 72, 136, 1000] {
            let left = (0..<count).map { _ in Float.random(in: -1...1, using: &generator) }
            var right = (0..<count).map { _ in Float.random(in: -1...1, using: &generator) }
            if count >= 136 { right[70] = -2e19 }
            var generic: StereoSumsAVX2.Totals = (0.5, -0.25, 1, 2, 3, 4), wide = generic
            var genericLargest = SIMD8<Float>(repeating: 0.125), wideLargest = genericLargest
            var offset = 0
            while offset + 8 <= count {
                let (a, b) = left.withUnsafeBufferPointer { l in
                    right.withUnsafeBufferPointer { r in
                        (
                            StereoSums.accumulate(
                                l.baseAddress! + offset, r.baseAddress! + offset, count: count - offset, totals: &generic, largest: &genericLargest),
                            StereoSumsAVX2.accumulate(
                                l.baseAddress! + offset, r.baseAddress! + offset, count: count - offset, totals: &wide, largest: &wideLargest)
                        )
                    }
                }
                #expect(a == b)
                offset += a.done + a.overflowing
                if a.overflowing == 0 { break }
            }
            #expect(offset == count / 8 * 8)
            #expect(generic == wide, "\(count) frames")
            #expect(genericLargest == wideLargest)
        }
    }
}
