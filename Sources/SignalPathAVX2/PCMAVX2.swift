/// 16-bit PCM samples (host byte order) to Float, sixteen at a time, in the module compiled for
/// x86-64-v3 (AVX2): each x · 2^-15, exact, as `PCMDecoder`'s own loop converts it, so the same
/// bits (`DecodingTests`, against libsndfile). A stream's 16-bit chunks now go into the workers'
/// rows undecoded (`AnalysisWorker.loadStreamed`); this serves the reads that still decode 16-bit
/// PCM to interleaved Float (a stream's `spectrum` and `events`, a window's reads;
/// docs/DECISIONS.md#stream-into-rows).
public enum PCMAVX2 {
    /// Converts samples from `source` into `out` while sixteen fit in `count`; returns the first
    /// sample not done.
    public static func int16ToFloat(_ source: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<Float>) -> Int {
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
