/// BS.1770's K-weighting of four channels in step (two pairs), in the module compiled for
/// x86-64-v3 (AVX2): each SIMD4<Double> of the state is one register instead of two.
/// `KWeighting` calls it only where the processor has it (`ProcessorFeatures`), its own loop
/// otherwise; both are the same operations in the same order (no fused multiply-add), so the same
/// bits (`LoudnessTests` compares them).
public enum KWeightingAVX2 {
    /// Filters `count` samples of each of the four channels: the shelf's b0, b1, b2, a1, a2 and the
    /// high-pass's a1, a2 (its b are 1, −2, 1), the states of both biquads, and each lane's sum of
    /// squared outputs.
    public static func filter(
        _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, _ third: UnsafePointer<Float>, _ fourth: UnsafePointer<Float>,
        count: Int, shelf: (Double, Double, Double, Double, Double), highPass: (Double, Double),
        state: inout (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>), adding energy: inout SIMD4<Double>
    ) {
        let sb0 = SIMD4(repeating: shelf.0), sb1 = SIMD4(repeating: shelf.1), sb2 = SIMD4(repeating: shelf.2)
        let sa1 = SIMD4(repeating: shelf.3), sa2 = SIMD4(repeating: shelf.4)
        let ha1 = SIMD4(repeating: highPass.0), ha2 = SIMD4(repeating: highPass.1)
        var (s1, s2, h1, h2) = state
        var sums = energy
        for index in 0..<count {
            let x = SIMD4(Double(first[index]), Double(second[index]), Double(third[index]), Double(fourth[index]))
            let y = sb0 * x + s1
            s1 = sb1 * x - sa1 * y + s2
            s2 = sb2 * x - sa2 * y
            let z = y + h1
            h1 = -2 * y - ha1 * z + h2
            h2 = y - ha2 * z
            sums += z * z
        }
        state = (s1, s2, h1, h2)
        energy = sums
    }
}
