import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// The fast MDCT against its definition, summed directly in Double.
@Suite("ModifiedCosineTransform: the MDCT's definition")
struct ModifiedCosineTransformTests {
    /// X[k] = Σ z[n] cos(π/M (n + ½ + M/2)(k + ½)), z = x · w.
    static func direct(_ samples: [Float], window: [Float]) -> [Double] {
        let m = samples.count / 2
        var coefficients = [Double](repeating: 0, count: m)
        for k in 0..<m {
            var sum = 0.0
            for n in 0..<2 * m {
                let phase = Double.pi / Double(m) * (Double(n) + 0.5 + Double(m) / 2) * (Double(k) + 0.5)
                sum += Double(samples[n]) * Double(window[n]) * cos(phase)
            }
            coefficients[k] = sum
        }
        return coefficients
    }

    @Test("seeded samples and windows at M = 32, 64 and 1024: every coefficient within 1e-5 of the largest", arguments: [32, 64, 1024])
    func matchesTheDefinition(coefficients m: Int) {
        var generator = SeededGenerator(seed: UInt64(m))
        let samples = (0..<2 * m + 5).map { _ in Float.random(in: -1...1, using: &generator) }
        let window = (0..<2 * m).map { _ in Float.random(in: 0...1, using: &generator) }
        let transform = ModifiedCosineTransform(coefficients: m)
        var output = [Float](repeating: .nan, count: m)
        samples.withUnsafeBufferPointer { samples in
            window.withUnsafeBufferPointer { window in
                output.withUnsafeMutableBufferPointer { transform.transform(samples, from: 5, window: window, into: $0) }
            }
        }
        let expected = Self.direct(Array(samples[5...]), window: window)
        let largest = expected.map(abs).max()!
        let worst = zip(output, expected).map { abs(Double($0) - $1) }.max()!
        #expect(worst <= 1e-5 * largest, "worst \(worst) of \(largest)")
    }

    @Test("countBelow counts the same coefficients as transform and a plain loop, from any multiple of 16")
    func countBelowMatchesTheCoefficients() {
        var generator = SeededGenerator(seed: 7)
        let m = 256
        // Sparse coefficients: a few partials, so that many coefficients are small and some are not.
        let samples = (0..<2 * m).map { n in
            Float(0.3 * sin(0.37 * Double(n)) + 0.1 * sin(2.1 * Double(n))) + Float.random(in: -1e-4...1e-4, using: &generator)
        }
        let window = FrameGridProbe.coefficients(.vorbis, size: 2 * m)
        let transform = ModifiedCosineTransform(coefficients: m)
        var output = [Float](repeating: 0, count: m)
        samples.withUnsafeBufferPointer { samples in
            window.withUnsafeBufferPointer { window in
                output.withUnsafeMutableBufferPointer { transform.transform(samples, from: 0, window: window, into: $0) }
                // Levels at the quartiles of the magnitudes, so that some coefficients fall under each and some do not.
                let sorted = output.map(abs).sorted()
                for first in [0, 16, 64, 160] {
                    for level in [sorted[m / 4], sorted[m / 2], sorted[3 * m / 4]] {
                        let counted = transform.countBelow((level, level / 4), from: first, in: samples, from: 0, window: window)
                        let expected = output[first...].filter { abs($0) < level }.count
                        let expectedFine = output[first...].filter { abs($0) < level / 4 }.count
                        #expect(counted == (expected, expectedFine), "first \(first), level \(level)")
                        #expect(expected > 0 && expected < m - first, "the case tells something: \(expected)")
                    }
                }
            }
        }
    }
}
