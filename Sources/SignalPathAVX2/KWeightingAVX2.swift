/// BS.1770's K-weighting of four channels in step (two pairs), compiled for x86-64-v3 (AVX2) from
/// the one source it shares with the baseline build (`KWeightingQuad`): each SIMD4<Double> of the
/// state is one register instead of two. `KWeighting` calls it only where the processor has it
/// (`ProcessorFeatures`).
public enum KWeightingAVX2 {
    /// `KWeightingQuad.filter`, built for AVX2.
    public static func filter(
        _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, _ third: UnsafePointer<Float>, _ fourth: UnsafePointer<Float>,
        count: Int, shelf: (Double, Double, Double, Double, Double), highPass: (Double, Double),
        state: inout (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>), adding energy: inout SIMD4<Double>
    ) {
        KWeightingQuad.filter(first, second, third, fourth, count: count, shelf: shelf, highPass: highPass, state: &state, adding: &energy)
    }
}
