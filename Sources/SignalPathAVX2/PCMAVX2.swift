/// 16-bit PCM samples (host byte order) to Float, compiled for x86-64-v3 (AVX2) from the one source
/// it shares with the baseline build (`PCMInt16`). A stream's 16-bit chunks go into the workers'
/// rows undecoded (`AnalysisWorker.loadStreamed`); this serves the reads that still decode 16-bit
/// PCM to interleaved Float (a stream's `spectrum` and `events`, a window's reads;
/// docs/DECISIONS.md#stream-into-rows).
public enum PCMAVX2 {
    /// `PCMInt16.toFloat`, built for AVX2.
    public static func int16ToFloat(_ source: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<Float>) -> Int {
        PCMInt16.toFloat(source, count: count, into: out)
    }
}
