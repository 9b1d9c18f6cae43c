/// The arithmetic of one `LevelStatistics` block, compiled for x86-64-v3 (AVX2) from the one source
/// it shares with the baseline build (`LevelBlock`). `LevelStatistics.Pass` calls it only where
/// the processor has it (`ProcessorFeatures`).
public enum LevelBlockAVX2 {
    /// `LevelBlock.summarize`, built for AVX2.
    public static func summarize(_ block: UnsafePointer<Float>, count: Int) -> (
        lowest: Float, highest: Float, sums: SIMD4<Double>, squares: SIMD4<Double>, changes: Int
    ) {
        LevelBlock.summarize(block, count: count)
    }
}
