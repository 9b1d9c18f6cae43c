/// BS.1770's true-peak interpolation, eight outputs at a time, in a module compiled for x86-64-v3
/// (AVX2 and FMA): `TruePeakMeter` calls it only on a processor that has those instructions
/// (`ProcessorFeatures`), and the SSE path of `TruePeakMeter.interpolate` otherwise.
///
/// The Recommendation's four phases come in mirrored pairs: phase 3's taps are phase 0's reversed,
/// phase 2's are phase 1's. For a pair (p, 3 − p) with taps c, the sum and difference of its two
/// outputs fold the inputs symmetrically,
///     S = y_p + y_{3−p} = Σ_{k<6} (c[k] + c[11−k])·(x[i−k] + x[i−11+k])
///     D = y_p − y_{3−p} = Σ_{k<6} (c[k] − c[11−k])·(x[i−k] − x[i−11+k]),
/// and max(|y_p|, |y_{3−p}|) = (|S| + |D|)/2: twelve multiply-adds for two phases where direct sums
/// take 24, and the six sums and differences of the inputs serve both pairs. Each of S and D is one
/// chain of fused multiply-adds; four chains are in flight for the two pairs, faster than direct
/// sums in two chains per phase (docs/DECISIONS.md#true-peak-kernels). The taps folded are
/// multiples of 2⁻¹³ below 1, so their sums and differences are exact in Float.
/// `TruePeakMeter.position` evaluates each phase with the same arithmetic (`foldedPair`) so a
/// peak's place is found by its bits, and `TruePeakTests` checks the kernels against a scalar model
/// of it, bit for bit.
public enum TruePeakAVX2 {
    /// Folded taps per pair: the six sums c[k] + c[11−k], then the six differences c[k] − c[11−k].
    public static let foldedTapsPerPair = 12

    /// S and D of one output of the pair whose folded taps are `c`, as the eight-wide loops compute
    /// them: each a chain of fused multiply-adds from k = 0. y_p = (S + D)/2, y_{3−p} = (S − D)/2.
    @inline(__always)
    public static func foldedPair(_ samples: UnsafePointer<Float>, _ index: Int, _ c: UnsafePointer<Float>) -> (sum: Float, difference: Float) {
        var sum = c[0] * (samples[index] + samples[index &- 11])
        var difference = c[6] * (samples[index] - samples[index &- 11])
        for k in 1..<6 {
            sum = sum.addingProduct(c[k], samples[index &- k] + samples[index &- 11 &+ k])
            difference = difference.addingProduct(c[6 &+ k], samples[index &- k] - samples[index &- 11 &+ k])
        }
        return (sum, difference)
    }

    /// The largest output magnitude of either phase of the pair with folded taps `c` for outputs
    /// `outputs` (reading 11 samples before the first): max (|S| + |D|)/2.
    public static func largestMagnitude(_ samples: UnsafePointer<Float>, outputs: Range<Int>, pair c: UnsafePointer<Float>) -> Float {
        let (s0, s1, s2, s3, s4, s5) = (c[0], c[1], c[2], c[3], c[4], c[5])
        let (t0, t1, t2, t3, t4, t5) = (c[6], c[7], c[8], c[9], c[10], c[11])
        var largest = SIMD8<Float>(repeating: 0)
        var index = outputs.lowerBound
        while index &+ 8 <= outputs.upperBound {
            let (a, d) = foldedInputs(samples, index)
            var sum = s0 * a.0, difference = t0 * d.0
            sum = sum.addingProduct(s1, a.1)
            difference = difference.addingProduct(t1, d.1)
            sum = sum.addingProduct(s2, a.2)
            difference = difference.addingProduct(t2, d.2)
            sum = sum.addingProduct(s3, a.3)
            difference = difference.addingProduct(t3, d.3)
            sum = sum.addingProduct(s4, a.4)
            difference = difference.addingProduct(t4, d.4)
            sum = sum.addingProduct(s5, a.5)
            difference = difference.addingProduct(t5, d.5)
            let magnitude = magnitude(sum) + magnitude(difference)
            largest.replace(with: magnitude, where: magnitude .> largest)
            index &+= 8
        }
        return foldedTail(samples, from: index, to: outputs.upperBound, pair: c, and: nil, largest: largest)
    }

    /// As `largestMagnitude(_:outputs:pair:)` for both pairs at once (`c`: two pairs' folded taps
    /// one after the other), the inputs' sums and differences taken once for both.
    public static func largestMagnitude(_ samples: UnsafePointer<Float>, outputs: Range<Int>, bothPairs c: UnsafePointer<Float>) -> Float {
        // 24 taps do not fit in 16 registers with the inputs; the compiler reads them from the
        // stack as operands of the multiply-adds.
        let t = c + foldedTapsPerPair
        var largest = SIMD8<Float>(repeating: 0)
        var index = outputs.lowerBound
        while index &+ 8 <= outputs.upperBound {
            let (a, d) = foldedInputs(samples, index)
            var sum = c[0] * a.0, difference = c[6] * d.0
            var sum2 = t[0] * a.0, difference2 = t[6] * d.0
            sum = sum.addingProduct(c[1], a.1)
            difference = difference.addingProduct(c[7], d.1)
            sum2 = sum2.addingProduct(t[1], a.1)
            difference2 = difference2.addingProduct(t[7], d.1)
            sum = sum.addingProduct(c[2], a.2)
            difference = difference.addingProduct(c[8], d.2)
            sum2 = sum2.addingProduct(t[2], a.2)
            difference2 = difference2.addingProduct(t[8], d.2)
            sum = sum.addingProduct(c[3], a.3)
            difference = difference.addingProduct(c[9], d.3)
            sum2 = sum2.addingProduct(t[3], a.3)
            difference2 = difference2.addingProduct(t[9], d.3)
            sum = sum.addingProduct(c[4], a.4)
            difference = difference.addingProduct(c[10], d.4)
            sum2 = sum2.addingProduct(t[4], a.4)
            difference2 = difference2.addingProduct(t[10], d.4)
            sum = sum.addingProduct(c[5], a.5)
            difference = difference.addingProduct(c[11], d.5)
            sum2 = sum2.addingProduct(t[5], a.5)
            difference2 = difference2.addingProduct(t[11], d.5)
            let first = magnitude(sum) + magnitude(difference), second = magnitude(sum2) + magnitude(difference2)
            largest.replace(with: first, where: first .> largest)
            largest.replace(with: second, where: second .> largest)
            index &+= 8
        }
        return foldedTail(samples, from: index, to: outputs.upperBound, pair: c, and: t, largest: largest)
    }

    /// x[i−k] + x[i−11+k] and x[i−k] − x[i−11+k], k = 0…5, for eight outputs from `index`.
    @inline(__always)
    static func foldedInputs(_ samples: UnsafePointer<Float>, _ index: Int) -> (
        sums: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>),
        differences: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
    ) {
        func load(_ index: Int) -> SIMD8<Float> { UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD8<Float>.self) }
        let (x0, x1, x2, x3, x4, x5) = (load(index), load(index &- 1), load(index &- 2), load(index &- 3), load(index &- 4), load(index &- 5))
        let (x6, x7, x8, x9, x10, x11) = (load(index &- 6), load(index &- 7), load(index &- 8), load(index &- 9), load(index &- 10), load(index &- 11))
        return ((x0 + x11, x1 + x10, x2 + x9, x3 + x8, x4 + x7, x5 + x6), (x0 - x11, x1 - x10, x2 - x9, x3 - x8, x4 - x7, x5 - x6))
    }

    /// |v|: the sign bit cleared (one instruction, where compare-and-select took three).
    @inline(__always)
    static func magnitude(_ v: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7fff_ffff, to: SIMD8<Float>.self)
    }

    /// The eight lanes' largest and the outputs after the last whole eight, one at a time, halved
    /// (exactly) at the end: (|S| + |D|)/2.
    @inline(__always)
    static func foldedTail(
        _ samples: UnsafePointer<Float>, from start: Int, to end: Int, pair c: UnsafePointer<Float>, and second: UnsafePointer<Float>?, largest: SIMD8<Float>
    ) -> Float {
        var result = largest.largestLane
        var index = start
        while index < end {
            let (sum, difference) = foldedPair(samples, index, c)
            result = max(result, abs(sum) + abs(difference))
            if let second {
                let (sum, difference) = foldedPair(samples, index, second)
                result = max(result, abs(sum) + abs(difference))
            }
            index &+= 1
        }
        return result * 0.5
    }

    /// For each stretch of `stretch` outputs from `start` to `end` (at most four), max |x| over the
    /// inputs its outputs read (`lookBehind` before it): the bounds `TruePeakMeter` tests the
    /// stretches against, in one call rather than one per stretch
    /// (docs/DECISIONS.md#true-peak-kernels).
    public static func stretchMagnitudes(_ samples: UnsafePointer<Float>, from start: Int, to end: Int, stretch: Int, lookBehind: Int) -> SIMD4<Float> {
        var result = SIMD4<Float>()
        var first = start, lane = 0
        while first < end {
            result[lane] = largestMagnitude(samples, (first &- lookBehind)..<min(first &+ stretch, end))
            first &+= stretch
            lane &+= 1
        }
        return result
    }

    /// max |x| over `range`, eight at a time. The magnitude is the sign bit cleared and a NaN is
    /// never the larger, as in `TruePeakMeter.largestMagnitude`'s four-wide loop: the same answer.
    @inline(__always)
    public static func largestMagnitude(_ samples: UnsafePointer<Float>, _ range: Range<Int>) -> Float {
        var largest = SIMD8<Float>(repeating: 0)
        var index = range.lowerBound
        while index &+ 8 <= range.upperBound {
            let magnitude = magnitude(UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD8<Float>.self))
            largest.replace(with: magnitude, where: magnitude .> largest)
            index &+= 8
        }
        var result = largest.largestLane
        while index < range.upperBound {
            result = max(result, abs(samples[index]))
            index &+= 1
        }
        return result
    }
}
