import Testing
import SignalPathTestSupport
@testable import SignalPathKit
import SignalPathAVX2

@Suite("Segment transform")
struct SegmentTransformTests {
    @Test("the strongest bin and the band's power agree with a bin-by-bin model: random bands, ties, zeros, short bands")
    func strongestBinAgreesWithNaiveModel() {
        var random = SeededGenerator(seed: 18)
        for trial in 0..<2000 {
            let count = Int.random(in: 1...80, using: &random)
            // Few distinct values make ties common; zeros are the silent band's case.
            let levels: [Float] = [0, 0.25, 1, 3.5, Float.random(in: 0..<4, using: &random)]
            let power = (0..<count).map { _ in levels.randomElement(using: &random)! * (trial % 3 == 0 ? 1e-30 : 1) }
            let lower = Int.random(in: 0..<count, using: &random)
            let bins = lower...Int.random(in: lower..<count, using: &random)
            var strongest = bins.lowerBound, total = 0.0
            for bin in bins {
                total += Double(power[bin])
                if power[bin] > power[strongest] { strongest = bin }
            }
            let found = power.withUnsafeBufferPointer { SegmentTransform.strongestBin(of: $0, in: bins) }
            #expect(found.bin == strongest, "trial \(trial): bins \(bins) of \(power)")
            #expect(abs(found.power - total) <= 1e-12 * total, "trial \(trial)")
        }
    }

    /// The one-pass kernel (AVX2) against the three passes it replaces, run here on the same
    /// spectrum: |X|² bin by bin (re·re + im·im), the per-bin sums (`combine`, mean) and
    /// `strongestBin`. Bit for bit: powers, sums, the strongest bin and the band's power. Seeded
    /// spectra of 1–80 bins and of 4 097 (an 8192-point FFT's), of full-precision values over a
    /// wide range (whose sums depend on their order) or of few distinct ones (ties) and zeros,
    /// bands anywhere (one bin, a whole group of eight, across the last bins),
    /// and no band.
    @Test("power, sums and the strongest bin in one pass equal the three separate passes, bit for bit", .enabled(if: SegmentTransform.wide))
    func onePassEqualsSeparatePasses() {
        var random = SeededGenerator(seed: 8192)
        for trial in 0..<3000 {
            let bins = trial % 10 == 0 ? 4097 : Int.random(in: 1...80, using: &random)
            let levels: [Float] = [0, 0.5, 1, -1.5, Float.random(in: -2...2, using: &random)]
            // Every other trial full-precision values over 2⁻⁴⁰…2⁴⁰, whose sums in Double round,
            // so that they depend on their order.
            let spectrum = (0..<2 * bins).map { _ in
                trial % 2 == 0
                    ? Float.random(in: -2...2, using: &random) * Float(sign: .plus, exponent: Int.random(in: -40...40, using: &random), significand: 1)
                    : levels.randomElement(using: &random)! * (trial % 7 == 0 ? 1e-20 : 1)
            }
            let start = (0..<bins).map { _ in Double(Float.random(in: 0...10, using: &random)) }
            let lower = Int.random(in: 0..<bins, using: &random)
            let band: ClosedRange<Int>? = trial % 5 == 4 ? nil : lower...Int.random(in: lower..<bins, using: &random)
            // The three passes.
            var expectedPower = [Float](repeating: 0, count: bins), expectedSums = start
            for bin in 0..<bins {
                let (re, im) = (spectrum[2 * bin], spectrum[2 * bin + 1])
                expectedPower[bin] = re * re + im * im
                expectedSums[bin] += Double(expectedPower[bin])
            }
            let expectedStrongest = band.map { band in expectedPower.withUnsafeBufferPointer { SegmentTransform.strongestBin(of: $0, in: band) } }
            // One pass.
            var power = [Float](repeating: .nan, count: bins), sums = start
            let strongest = spectrum.withUnsafeBufferPointer { spectrum in
                power.withUnsafeMutableBufferPointer { power in
                    sums.withUnsafeMutableBufferPointer { sums in
                        PowerSpectrumAVX2.power(spectrum.baseAddress!, bins: bins, into: power.baseAddress!, adding: sums.baseAddress!, band: band)
                    }
                }
            }
            #expect(power.map { $0.bitPattern } == expectedPower.map { $0.bitPattern }, "trial \(trial): powers")
            #expect(sums.map { $0.bitPattern } == expectedSums.map { $0.bitPattern }, "trial \(trial): sums")
            #expect(strongest?.bin == expectedStrongest?.bin, "trial \(trial), band \(String(describing: band)) of \(bins)")
            #expect(strongest?.power.bitPattern == expectedStrongest?.power.bitPattern, "trial \(trial), band \(String(describing: band)) of \(bins)")
        }
    }

    @Test("windowing one channel of interleaved frames gives the scalar products bit for bit: 1 to 3 channels, every channel, every window length up to 40, at the buffer's end")
    func windowedAgreesWithScalarModel() {
        var random = SeededGenerator(seed: 27)
        for channels in 1...3 {
            for length in 1...40 {
                let frames = length + Int.random(in: 0...3, using: &random)
                let samples = (0..<frames * channels).map { _ in Float.random(in: -1...1, using: &random) }
                let window = (0..<length).map { _ in Float.random(in: 0...1, using: &random) }
                // The last segment that fits, so that a load past the end would be caught by ASan.
                let firstFrame = frames - length
                // Both builds of the one loop: the baseline, and AVX2 where the processor has it.
                for channel in 0..<channels {
                    for wide in SegmentTransform.wide ? [false, true] : [false] {
                        var input = [Float](repeating: .nan, count: length)
                        samples.withUnsafeBufferPointer { samples in
                            window.withUnsafeBufferPointer { window in
                                input.withUnsafeMutableBufferPointer { input in
                                    SegmentTransform.windowed(
                                        samples, from: firstFrame * channels + channel, stride: channels, by: window, into: input, wide: wide)
                                }
                            }
                        }
                        let model = (0..<length).map { window[$0] * samples[(firstFrame + $0) * channels + channel] }
                        #expect(input.map(\.bitPattern) == model.map(\.bitPattern), "\(channels) channels, channel \(channel), length \(length), wide \(wide)")
                    }
                }
            }
        }
    }

    @Test(
        "windowing 16-bit samples where they lie gives the products of decoding to Float first (x · 2^-15) and then windowing, bit for bit: 1 to 3 channels, every channel, every window length up to 40, at the end"
    )
    func int16WindowedAgreesWithDecodeFirstModel() {
        var random = SeededGenerator(seed: 29)
        for channels in 1...3 {
            for length in 1...40 {
                let frames = length + Int.random(in: 0...3, using: &random)
                // Full-scale codes included: -32768 and 32767.
                let codes = (0..<frames * channels).map { _ in Int16.random(in: Int16.min...Int16.max, using: &random) }
                let window = (0..<length).map { _ in Float.random(in: 0...1, using: &random) }
                let scaled = window.map { $0 * 0x1p-15 }
                let firstFrame = frames - length
                for channel in 0..<channels {
                    for wide in SegmentTransform.wide ? [false, true] : [false] {
                        var input = [Float](repeating: .nan, count: length)
                        // Exactly the segment's bytes, so that a load past them would be caught by ASan.
                        let segment = Array(codes[(firstFrame * channels)...])
                        segment.withUnsafeBytes { bytes in
                            scaled.withUnsafeBufferPointer { window in
                                input.withUnsafeMutableBufferPointer { input in
                                    SegmentTransform.windowed(int16: bytes.baseAddress!, channel: channel, stride: channels, by: window, into: input, wide: wide)
                                }
                            }
                        }
                        let model = (0..<length).map { window[$0] * (Float(codes[(firstFrame + $0) * channels + channel]) * 0x1p-15) }
                        #expect(input.map(\.bitPattern) == model.map(\.bitPattern), "\(channels) channels, channel \(channel), length \(length), wide \(wide)")
                    }
                }
            }
        }
    }

    @Test("the power spectrum is |X[k]|² of FFTW's output bin by bin, bit for bit, for sizes whose bin counts leave 0–3 bins after the groups of four")
    func powerAgreesWithScalarModel() {
        var random = SeededGenerator(seed: 28)
        for size in [2, 4, 6, 8, 10, 16, 22, 64, 1000] {
            let fft = RealFFT(size: size)
            var power = [Float](repeating: .nan, count: fft.binCount)
            let signal = (0..<size).map { _ in Float.random(in: -1...1, using: &random) }
            fft.powerSpectrum(into: &power) { input in
                for index in 0..<size { input[index] = signal[index] }
            }
            let model: [Float] = fft.withLastSpectrum { spectrum in
                (0..<fft.binCount).map { bin -> Float in
                    let re = spectrum[2 * bin], im = spectrum[2 * bin + 1]
                    return re * re + im * im
                }
            }
            #expect(power.map(\Float.bitPattern) == model.map(\Float.bitPattern), "size \(size)")
        }
    }
}
