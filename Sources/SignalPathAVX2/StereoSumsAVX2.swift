/// The stereo pair's frame sums, compiled for x86-64-v3 (AVX2) from the one source they share with
/// the baseline build (`StereoSums`). `StereoImage.Sums.add` calls it only where the processor has
/// it (`ProcessorFeatures`).
public enum StereoSumsAVX2 {
    /// `StereoSums.Totals`: Σ L, Σ R, Σ L², Σ R², Σ L·R, Σ ((L + R) / 2)².
    public typealias Totals = (left: Double, right: Double, leftSquares: Double, rightSquares: Double, products: Double, mono: Double)

    /// `StereoSums.accumulate`, built for AVX2.
    public static func accumulate(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, count: Int, totals: inout Totals, largest: inout SIMD8<Float>
    ) -> (done: Int, overflowing: Int) {
        StereoSums.accumulate(left, right, count: count, totals: &totals, largest: &largest)
    }
}
