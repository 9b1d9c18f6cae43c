/// 16-bit PCM samples (host byte order) to Float, sixteen at a time: the one source of both its
/// builds. Compiled twice, as an internal type of each module: here, for x86-64-v3, inside
/// `PCMAVX2.int16ToFloat` (256-bit registers), and in SignalPathKit (`Decoding/PCMInt16.swift`
/// is a link to it) at the x86-64 baseline, where `PCMDecoder` runs it on processors without
/// AVX2 (128-bit halves). Each sample x · 2^-15, exact: the same bits at any width
/// (docs/DECISIONS.md#avx2-kernels).
enum PCMInt16 {
    /// Converts samples from `source` into `out` while sixteen fit in `count`; returns the first
    /// sample not done.
    @inline(__always)
    static func toFloat(_ source: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<Float>) -> Int {
        var index = 0
        while index &+ 16 <= count {
            let samples = source.loadUnaligned(fromByteOffset: index &* 2, as: SIMD16<Int16>.self)
            let low = SIMD8<Int32>(truncatingIfNeeded: samples.lowHalf)
            let high = SIMD8<Int32>(truncatingIfNeeded: samples.highHalf)
            let scale = SIMD8<Float>(repeating: 0x1p-15)
            let lowValues: SIMD8<Float> = SIMD8<Float>(low) * scale
            let highValues: SIMD8<Float> = SIMD8<Float>(high) * scale
            UnsafeMutableRawPointer(out + index).storeBytes(of: lowValues, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(out + (index &+ 8)).storeBytes(of: highValues, as: SIMD8<Float>.self)
            index &+= 16
        }
        return index
    }
}
