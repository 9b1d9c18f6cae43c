/// What a sample format means for level statistics: full scale, integer codes, the finest bit.
extension SampleFormat {
    /// The magnitude of the largest code: 1 − 2^−(bits−1) for integer PCM (which rounds to 1.0 in a
    /// Float for 32 bits), the largest decoded value for µ-law and A-law, 1.0 otherwise.
    var fullScale: Float {
        switch self {
        case .pcm(let bits, _), .lossless(_, let bits):
            return Float(1 - 1 / Double(Int64(1) << Int64(max(1, min(bits, 62)) - 1)))
        case .ulaw: return 32124 / 32768
        case .alaw: return 32256 / 32768
        case .float, .compressed: return 1
        }
    }

    /// True for integer PCM, lossless integer codecs, µ-law and A-law.
    var holdsIntegers: Bool {
        switch self {
        case .pcm, .lossless, .ulaw, .alaw: return true
        case .float, .compressed: return false
        }
    }

    /// The exponent of the finest bit the format holds: −(bits − 1) for integer PCM, −15 for µ-law
    /// and A-law (16-bit codes), −149 (the smallest Float) for float. A lossy codec's decode has no
    /// bits in use to find (the combiner reports none), so `Int.max` stops the search before it
    /// starts (docs/DECISIONS.md#level-blocks).
    var finestBitExponent: Int {
        switch self {
        case .pcm(let bits, _), .lossless(_, let bits): return -(max(1, min(bits, 32)) - 1)
        case .ulaw, .alaw: return -15
        case .float: return -149
        case .compressed: return .max
        }
    }
}
