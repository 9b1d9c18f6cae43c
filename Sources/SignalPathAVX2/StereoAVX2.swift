/// The 16-bit stereo deinterleave into `analyze`'s rows eight frames at a time, compiled for
/// x86-64-v3 (AVX2) from the one source it shares with the baseline build (`StereoInt16`). Four
/// wide, it was 2.8 % of analyze's time on the 60-minute WAV, eight wide 2.3 % (perf).
public enum StereoAVX2 {
    /// `StereoInt16.deinterleave`, built for AVX2.
    public static func deinterleave(
        int16 frames: UnsafeRawPointer, count: Int, leftIsLow: Bool, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
    ) -> Int {
        StereoInt16.deinterleave(int16: frames, count: count, leftIsLow: leftIsLow, left: left, right: right)
    }
}
