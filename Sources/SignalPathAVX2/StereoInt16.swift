/// The 16-bit stereo deinterleave, eight frames at a time: the one source of both its builds.
/// This file is compiled twice, as an internal type of each module: here, for x86-64-v3, inside
/// `StereoAVX2.deinterleave` (one 256-bit register per eight samples), and in SignalPathKit
/// (`Decoding/StereoInt16.swift` is a link to it) at the x86-64 baseline, where
/// `PCMDecoder.deinterleave` calls it on processors without AVX2 (two 128-bit halves). Internal,
/// each build has its module's own symbols, so the linker cannot hand one module's code to the
/// other. The arithmetic is exact (shifts, a conversion of a 16-bit integer, a multiplication by
/// 2^-15), so both give the same bits.
enum StereoInt16 {
    /// Frames of interleaved 16-bit stereo (host byte order) from `frames` into `left` and
    /// `right`, each sample x · 2^-15, eight frames at a time while eight fit in `count`; returns
    /// the first frame not done. `leftIsLow`: the left sample is each frame's low half.
    @inline(__always)
    static func deinterleave(
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
    /// Int32: the low half (`low`) or the high half, sign-extended by shifts.
    @inline(__always)
    static func channel(low: Bool, of frames: SIMD8<Int32>) -> SIMD8<Float> {
        SIMD8<Float>((frames &<< (low ? 16 : 0)) &>> 16)
    }
}
