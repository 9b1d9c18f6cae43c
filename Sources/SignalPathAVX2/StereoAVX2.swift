/// The 16-bit stereo deinterleave into `analyze`'s rows eight frames at a time, in the module
/// compiled for x86-64-v3 (AVX2). It returns where it stopped; `AnalysisWorker`'s four-wide loop
/// finishes the rest. Each value is the one that loop computes, so the same bits
/// (`AnalysisWorkerTests`). The stereo image's cross-spectrum sum stays four wide: it waits on
/// memory, not on its instructions (docs/DECISIONS.md#avx2-kernels).
public enum StereoAVX2 {
    /// Frames of interleaved 16-bit stereo (host byte order) from `frames` into `left` and
    /// `right`, each sample x · 2^-15, eight frames at a time while eight fit in `count`; returns
    /// the first frame not done. `leftIsLow`: the left sample is each frame's low half.
    public static func deinterleave(
        int16 frames: UnsafeRawPointer, count: Int, leftIsLow: Bool, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
    ) -> Int {
        var frame = 0
        while frame &+ 8 <= count {
            let pairs = frames.loadUnaligned(fromByteOffset: frame &* 4, as: SIMD8<Int32>.self)
            UnsafeMutableRawPointer(left + frame).storeBytes(of: channel(low: leftIsLow, of: pairs) * 0x1p-15, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(right + frame).storeBytes(of: channel(low: !leftIsLow, of: pairs) * 0x1p-15, as: SIMD8<Float>.self)
            frame &+= 8
        }
        return frame
    }

    /// One channel's samples of eight interleaved 16-bit stereo frames, each frame loaded as an
    /// Int32: the low half (`low`) or the high half, sign-extended by shifts, as
    /// `PCMDecoder.channel(_:of:)` splits four (the AVX2 kernels cannot call it: this module comes
    /// first).
    @inline(__always)
    static func channel(low: Bool, of frames: SIMD8<Int32>) -> SIMD8<Float> {
        SIMD8<Float>((frames &<< (low ? 16 : 0)) &>> 16)
    }
}
