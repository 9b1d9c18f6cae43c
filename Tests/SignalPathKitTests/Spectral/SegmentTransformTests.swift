import Testing
import SignalPathTestSupport
@testable import SignalPathKit

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
}
