/// The 16-bit stereo deinterleave into `analyze`'s rows eight frames at a time, compiled for
/// x86-64-v3 (AVX2) from the one source it shares with the baseline build (`StereoInt16`). The
/// stereo image's cross-spectrum sum stays four wide: it waits on memory, not on its instructions
/// (docs/DECISIONS.md#avx2-kernels).
public enum StereoAVX2 {
    /// `StereoInt16.deinterleave`, built for AVX2.
    public static func deinterleave(
        int16 frames: UnsafeRawPointer, count: Int, leftIsLow: Bool, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
    ) -> Int {
        StereoInt16.deinterleave(int16: frames, count: count, leftIsLow: leftIsLow, left: left, right: right)
    }
}
