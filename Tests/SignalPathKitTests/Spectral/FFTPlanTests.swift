import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit
import SignalPathAVX2

/// `RealFFT`'s packed transforms (FFTW's complex transform of half the size, unpacked by
/// `RealTransformAVX2`) against the exact DFT in Double and against FFTW's own real transform.
@Suite("FFT plans: packed real transforms")
struct FFTPlanTests {
    /// Bins 0...N/2 of the DFT of `x`, in Double, summed directly.
    static func exactDFT(_ x: [Float]) -> [(re: Double, im: Double)] {
        let n = x.count
        return (0...n / 2).map { k in
            var (re, im) = (0.0, 0.0)
            for (index, value) in x.enumerated() {
                let angle = -2 * Double.pi * Double((k * index) % n) / Double(n)
                re += Double(value) * cos(angle)
                im += Double(value) * sin(angle)
            }
            return (re, im)
        }
    }

    static func spectrum(_ x: [Float], packed: Bool) -> [Float] {
        let fft = RealFFT(size: x.count, packed: packed)
        fft.transform { input in
            for index in x.indices { input[index] = x[index] }
        }
        return fft.withLastSpectrum { Array($0) }
    }

    /// Root mean square of the bins' error against the exact DFT, relative to the bins' RMS.
    static func relativeError(_ spectrum: [Float], _ exact: [(re: Double, im: Double)]) -> Double {
        var (error, total) = (0.0, 0.0)
        for (k, bin) in exact.enumerated() {
            let (re, im) = (Double(spectrum[2 * k]) - bin.re, Double(spectrum[2 * k + 1]) - bin.im)
            error += re * re + im * im
            total += bin.re * bin.re + bin.im * bin.im
        }
        return (error / total).squareRoot()
    }

    @Test(
        "a packed transform is the exact DFT within float rounding, as FFTW's real transform is: sizes 8 to 2048, multiples of 4 that do and do not fill the groups of four pairs",
        .enabled(if: ProcessorFeatures.hasX86_64_v3))
    func packedMatchesExactDFT() {
        var random = SeededGenerator(seed: 4096)
        for size in [8, 12, 16, 20, 24, 28, 36, 44, 64, 100, 256, 1000, 2048] {
            for signal in 0..<3 {
                // Noise, a tone between bins with a little noise, and noise scaled far down.
                let x: [Float] = (0..<size).map { index in
                    let noise = Float.random(in: -1...1, using: &random)
                    switch signal {
                    case 0: return noise
                    case 1: return Float(sin(2 * Double.pi * 3.3 * Double(index) / Double(size))) + 1e-4 * noise
                    default: return 1e-6 * noise
                    }
                }
                let exact = Self.exactDFT(x)
                let (packed, fftw) = (Self.spectrum(x, packed: true), Self.spectrum(x, packed: false))
                let (packedError, fftwError) = (Self.relativeError(packed, exact), Self.relativeError(fftw, exact))
                // A float FFT's error grows as ε·log2 N; the packed path within twice FFTW's own.
                let bound = 2 * Double(Float.ulpOfOne) * log2(Double(size))
                #expect(packedError <= bound, "size \(size), signal \(signal): \(packedError) against bound \(bound)")
                #expect(packedError <= 2 * fftwError + Double(Float.ulpOfOne) / 8, "size \(size), signal \(signal): packed \(packedError), FFTW \(fftwError)")
                // DC and Nyquist are real.
                #expect(packed[1] == 0 && packed[size + 1] == 0, "size \(size): imaginary parts of DC and Nyquist \(packed[1]), \(packed[size + 1])")
            }
        }
    }

    @Test(
        "unpacking eight lanes at a time gives the bits of the pairs one at a time: half sizes that leave 0-3 pairs after the groups",
        .enabled(if: ProcessorFeatures.hasX86_64_v3))
    func unpackAgreesWithScalarModel() {
        var random = SeededGenerator(seed: 2048)
        for half in [4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 34, 2048] {
            let tables = RealFFT.sharedUnpackingTables(size: 2 * half)
            let (cosines, sines) = (tables, tables + half)
            let z = (0..<2 * half).map { _ in Float.random(in: -1...1, using: &random) } + [.nan, .nan]
            var unpacked = z
            unpacked.withUnsafeMutableBufferPointer { RealTransformAVX2.unpack($0.baseAddress!, half: half, cosines: cosines, sines: sines) }
            // The model: X[k] = q/2 + r, X[M−k] = conj(q/2 − r) from a = Z[k], b = Z[M−k].
            var model = z
            (model[0], model[1], model[2 * half], model[2 * half + 1]) = (z[0] + z[1], 0, z[0] - z[1], 0)
            model[half + 1] = -z[half + 1]
            for k in 1..<half / 2 {
                let (aRe, aIm, bRe, bIm) = (z[2 * k], z[2 * k + 1], z[2 * (half - k)], z[2 * (half - k) + 1])
                let (qRe, qIm, pRe, pIm) = (aRe + bRe, aIm - bIm, aRe - bRe, aIm + bIm)
                let rRe = cosines[2 * k] * pIm + sines[2 * k] * pRe
                let rIm = cosines[2 * k + 1] * pRe + sines[2 * k + 1] * pIm
                (model[2 * k], model[2 * k + 1]) = (qRe * 0.5 + rRe, qIm * 0.5 + rIm)
                (model[2 * (half - k)], model[2 * (half - k) + 1]) = (qRe * 0.5 - rRe, -(qIm * 0.5 - rIm))
            }
            #expect(unpacked.map(\.bitPattern) == model.map(\.bitPattern), "half \(half)")
        }
    }
}
