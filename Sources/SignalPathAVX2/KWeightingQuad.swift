/// BS.1770's K-weighting of two pairs of channels in step, four lanes: the one source of both its
/// builds. Compiled twice, as an internal type of each module: here, for x86-64-v3, inside
/// `KWeightingAVX2.filter` (a SIMD4<Double> in one 256-bit register), and in SignalPathKit
/// (`Analysis/Loudness/KWeightingQuad.swift` is a link to it) at the x86-64 baseline, where
/// `KWeighting` runs it on processors without AVX2 (two 128-bit halves). Products and sums in the
/// same order, no fused multiply-add: the same bits (docs/DECISIONS.md#avx2-kernels).
enum KWeightingQuad {
    /// Filters `count` samples of each of the four channels, as `KWeighting.StepCoefficients`
    /// describes the step: the shelf's b0, its multipliers of x for the two states, a1 and a2; the
    /// high-pass's a1 and a2 (its b are 1, −2, 1). The states of both biquads, and each lane's sum
    /// of squared outputs.
    @inline(__always)
    static func filter(
        _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, _ third: UnsafePointer<Float>, _ fourth: UnsafePointer<Float>,
        count: Int, shelf: (Double, Double, Double, Double, Double), highPass: (Double, Double),
        state: inout (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>), adding energy: inout SIMD4<Double>
    ) {
        let sb0 = SIMD4(repeating: shelf.0), x1 = SIMD4(repeating: shelf.1), x2 = SIMD4(repeating: shelf.2)
        let sa1 = SIMD4(repeating: shelf.3), sa2 = SIMD4(repeating: shelf.4)
        let ha1 = SIMD4(repeating: highPass.0), ha2 = SIMD4(repeating: highPass.1)
        var (s1, s2, h1, h2) = state
        var sums = energy
        for index in 0..<count {
            let x = SIMD4(Double(first[index]), Double(second[index]), Double(third[index]), Double(fourth[index]))
            let y = sb0 * x + s1
            let z = y + h1
            sums += z * z
            (s1, s2) = ((x1 * x + s2) - sa1 * s1, x2 * x - sa2 * s1)
            (h1, h2) = ((h2 - 2 * y) - ha1 * z, y - ha2 * z)
        }
        state = (s1, s2, h1, h2)
        energy = sums
    }
}
