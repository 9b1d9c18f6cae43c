/// A band-limited interpolator: the value of a sampled signal a fraction of a sample past a sample,
/// by a Kaiser-windowed sinc of `taps` points (half before, half after). `compare` shifts its
/// second file by the part of the delay that is not a whole sample with it.
struct FractionalDelay: Sendable {
    /// Points before and after: the filter reads `halfLength - 1` samples before and `halfLength` after.
    static let halfLength = 16
    /// Kaiser β: the error against an ideal delay is under −79 dB up to 0.8 × Nyquist (−57 dB at 0.85).
    static let beta = 8.0
    /// The fraction of a sample it interpolates at, in [0, 1).
    let fraction: Double
    /// `2 · halfLength` coefficients for samples at offsets `-halfLength + 1 ... halfLength`, summing to 1.
    let coefficients: [Float]

    init(fraction: Double) {
        precondition(fraction >= 0 && fraction < 1)
        self.fraction = fraction
        let half = Self.halfLength
        var values: [Double] = []
        for offset in -half + 1...half {
            let x = Double(offset) - fraction
            let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
            let position = x / Double(half)
            let window = abs(position) >= 1 ? 0 : Self.besselI0(Self.beta * (1 - position * position).squareRoot()) / Self.besselI0(Self.beta)
            values.append(sinc * window)
        }
        // Unit gain at DC, so that a constant stays that constant.
        let sum = values.reduce(0, +)
        coefficients = values.map { Float($0 / sum) }
    }

    /// The modified Bessel function I₀, by its power series (converges fast for the β used).
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > 1e-12 * sum {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }

    /// Writes `frames` frames of `channels` interleaved channels into `output`: frame m is the
    /// input's value at frame `m + fraction`, where `input` points at frame 0 and holds frames
    /// `-halfLength + 1 ..< frames + halfLength`.
    func apply(_ input: UnsafePointer<Float>, channels: Int, frames: Int, into output: UnsafeMutablePointer<Float>) {
        let half = Self.halfLength
        let count = frames * channels
        // Interleaved frames are one run of samples in which a channel's neighbours lie `channels`
        // apart: eight outputs at a time (whichever channels they are), each tap one contiguous load.
        let first = input - (half - 1) * channels
        coefficients.withUnsafeBufferPointer { taps in
            var index = 0
            while index + 8 <= count {
                var sums = SIMD8<Float>(repeating: 0)
                var source = first + index
                for tap in 0..<2 * half {
                    sums += taps[tap] * UnsafeRawPointer(source).loadUnaligned(as: SIMD8<Float>.self)
                    source += channels
                }
                UnsafeMutableRawPointer(output + index).storeBytes(of: sums, as: SIMD8<Float>.self)
                index += 8
            }
            while index < count {
                var sum: Float = 0
                var source = first + index
                for tap in 0..<2 * half {
                    sum += taps[tap] * source[0]
                    source += channels
                }
                output[index] = sum
                index += 1
            }
        }
    }
}
