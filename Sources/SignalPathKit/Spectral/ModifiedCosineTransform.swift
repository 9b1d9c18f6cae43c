/// The MDCT that AAC, Vorbis and most transform coders frame their audio with: 2M windowed
/// samples to M coefficients, X[k] = Σ z[n] cos(π/M (n + ½ + M/2)(k + ½)), unnormalised.
///
/// Computed as a DCT-IV of the window's folded halves (−c_r − d, a − b_r) through a complex FFT of
/// M/2 points between two twiddles: about a quarter of the work of the plain M-point DCT-IV that
/// FFTW offers as REDFT11 (docs/DECISIONS.md#frame-grid-cost). Twiddles
/// and buffers are made once: `transform` allocates nothing. Not Sendable: one worker owns it.
final class ModifiedCosineTransform {
    /// Coefficients per transform (M); the transform reads 2M samples.
    let coefficients: Int
    private let fft: ComplexFFT
    /// exp(−iπ(4m + 1)/(4M)) and exp(−iπm/M) for m < M/2: cosines and negated sines.
    private let preCosine: [Float], preSine: [Float]
    private let postCosine: [Float], postSine: [Float]
    private var windowed: [Float]

    init(coefficients: Int) {
        precondition(coefficients >= 32 && coefficients % 32 == 0, "M is a multiple of 32: the fold takes eight pairs at a time from each quarter")
        self.coefficients = coefficients
        let half = coefficients / 2
        fft = ComplexFFT(size: half)
        let m = Double(coefficients)
        let pre = (0..<half).map { Double.pi * Double(4 * $0 + 1) / (4 * m) }
        let post = (0..<half).map { Double.pi * Double($0) / m }
        preCosine = pre.map { Float(cos($0)) }
        preSine = pre.map { Float(-sin($0)) }
        postCosine = post.map { Float(cos($0)) }
        postSine = post.map { Float(-sin($0)) }
        windowed = [Float](repeating: 0, count: 2 * coefficients)
    }

    /// The coefficients of `samples[start..<start + 2M]` under `window` (2M values) into `output` (M).
    func transform(_ samples: UnsafeBufferPointer<Float>, from start: Int, window: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let m = coefficients, half = m / 2
        precondition(output.count >= m)
        let out = output.baseAddress!
        forward(samples, from: start, window: window) { spectrum in
            for index in 0..<half {
                let re = spectrum[2 &* index], im = spectrum[2 &* index &+ 1]
                let c = postCosine[index], s = postSine[index]
                out[2 &* index] = re * c - im * s
                out[m &- 1 &- 2 &* index] = -(re * s + im * c)
            }
        }
    }

    /// How many of the coefficients from `first` up (a multiple of 16) lie strictly between −level
    /// and level, for each of two levels: `transform` and the counts in one, eight at a time,
    /// without putting the coefficients in order (the even ones come out ascending, the odd ones
    /// descending).
    func countBelow(
        _ levels: (Float, Float), from first: Int, in samples: UnsafeBufferPointer<Float>, from start: Int, window: UnsafeBufferPointer<Float>
    ) -> (Int, Int) {
        let m = coefficients, half = m / 2
        precondition(first >= 0 && first < m && first % 16 == 0)
        // x| < level compared as the bit patterns of non-negative Floats, which order as the
        // numbers do: the sign bit cleared, one unsigned compare, the mask's −1 subtracted (cheaper
        // than two Float compares and a select per lane; docs/DECISIONS.md#frame-grid-cost).
        let magnitude = SIMD8<UInt32>(repeating: 0x7FFF_FFFF)
        let high = SIMD8<UInt32>(repeating: levels.0.bitPattern), high2 = SIMD8<UInt32>(repeating: levels.1.bitPattern)
        func below(_ values: SIMD8<Float>, _ level: SIMD8<UInt32>) -> SIMD8<Int32> {
            unsafeBitCast(unsafeBitCast(values, to: SIMD8<UInt32>.self) & magnitude .< level, to: SIMD8<Int32>.self)
        }
        return forward(samples, from: start, window: window) { spectrum in
            let spectrum = UnsafeRawPointer(spectrum)
            var lanes = SIMD8<Int32>(), lanes2 = SIMD8<Int32>()
            postCosine.withUnsafeBufferPointer { cosine in
                postSine.withUnsafeBufferPointer { sine in
                    let cosine = UnsafeRawPointer(cosine.baseAddress!), sine = UnsafeRawPointer(sine.baseAddress!)
                    // Pair i gives X[2i] (counted for 2i ≥ first) and X[M − 1 − 2i] (for i < (M − first)/2).
                    let lastOdd = (m - first) / 2
                    var index = 0
                    while index < half {
                        let pairs = spectrum.loadUnaligned(fromByteOffset: index &* 8, as: SIMD16<Float>.self)
                        let re = pairs.evenHalf, im = pairs.oddHalf
                        let c = cosine.loadUnaligned(fromByteOffset: index &* 4, as: SIMD8<Float>.self)
                        let s = sine.loadUnaligned(fromByteOffset: index &* 4, as: SIMD8<Float>.self)
                        let even = re * c - im * s, odd = re * s + im * c
                        if 2 &* index >= first {
                            lanes &-= below(even, high)
                            lanes2 &-= below(even, high2)
                        }
                        if index < lastOdd {
                            lanes &-= below(odd, high)
                            lanes2 &-= below(odd, high2)
                        }
                        index &+= 8
                    }
                }
            }
            return (Int(lanes.wrappedSum()), Int(lanes2.wrappedSum()))
        }
    }

    /// Window, fold, pre-twiddle and FFT; hands `body` the FFT's output (M/2 pairs of re, im).
    private func forward<Result>(
        _ samples: UnsafeBufferPointer<Float>, from start: Int, window: UnsafeBufferPointer<Float>, _ body: (UnsafePointer<Float>) -> Result
    ) -> Result {
        let m = coefficients, half = m / 2
        precondition(start >= 0 && start + 2 * m <= samples.count && window.count == 2 * m)
        let x = samples.baseAddress! + start, w = window.baseAddress!
        return windowed.withUnsafeMutableBufferPointer { windowed in
            let z = windowed.baseAddress!
            // The window's product eight at a time, then the fold reads it forwards and backwards.
            var index = 0
            while index < 2 &* m {
                let product =
                    UnsafeRawPointer(x + index).loadUnaligned(as: SIMD8<Float>.self) * UnsafeRawPointer(w + index).loadUnaligned(as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(z + index).storeBytes(of: product, as: SIMD8<Float>.self)
                index &+= 8
            }
            // The fold (−c_r − d, a − b_r) of the quarters a, b, c, d, read straight into the
            // FFT's input: pair i is (u[2i], u[M − 1 − 2i]) under the pre-twiddle. Eight pairs at a
            // time, each lane the scalar arithmetic: every other product forwards, or backwards.
            let h = half
            func forwards(_ at: Int) -> SIMD8<Float> { UnsafeRawPointer(z + at).loadUnaligned(as: SIMD16<Float>.self).evenHalf }
            func backwards(_ at: Int) -> SIMD8<Float> {
                let odd = UnsafeRawPointer(z + at - 15).loadUnaligned(as: SIMD16<Float>.self).oddHalf
                return SIMD8(odd[7], odd[6], odd[5], odd[4], odd[3], odd[2], odd[1], odd[0])
            }
            return fft.transform { input in
                let input = UnsafeMutableRawPointer(input.baseAddress!)
                preCosine.withUnsafeBufferPointer { cosine in
                    preSine.withUnsafeBufferPointer { sine in
                        var i = 0
                        while i < h {
                            let re: SIMD8<Float>, im: SIMD8<Float>
                            if i < h / 2 {
                                re = -backwards(3 &* h &- 1 &- 2 &* i) - forwards(3 &* h &+ 2 &* i)
                                im = backwards(h &- 1 &- 2 &* i) - forwards(h &+ 2 &* i)
                            } else {
                                re = forwards(2 &* i &- h) - backwards(3 &* h &- 1 &- 2 &* i)
                                im = -forwards(h &+ 2 &* i) - backwards(5 &* h &- 1 &- 2 &* i)
                            }
                            let c = UnsafeRawPointer(cosine.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
                            let s = UnsafeRawPointer(sine.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
                            var pairs = SIMD16<Float>()
                            pairs.evenHalf = re * c - im * s
                            pairs.oddHalf = re * s + im * c
                            input.storeBytes(of: pairs, toByteOffset: i &* 8, as: SIMD16<Float>.self)
                            i &+= 8
                        }
                    }
                }
            } _: { spectrum in
                body(spectrum.baseAddress!)
            }
        }
    }
}
