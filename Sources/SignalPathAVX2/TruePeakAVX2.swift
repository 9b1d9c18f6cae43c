/// BS.1770's true-peak interpolation, one phase eight outputs at a time, in a module compiled for
/// x86-64-v3 (AVX2 and FMA): `TruePeakMeter` calls it only on a processor that has those
/// instructions (`ProcessorFeatures`), and the SSE path of `TruePeakMeter.interpolate` otherwise.
///
/// Each output is two chains of fused multiply-adds, the even taps from c[0]·x[i] and the odd ones
/// from c[1]·x[i−1], then their sum: one rounding per tap instead of two, so nearer the exact sum
/// than the SSE path's multiply-then-add, tap after tap, by a few units in the last place of Float.
/// `TruePeakMeter.position` sums the same way where this path runs (`fusedSum`), so a peak's place
/// is found by its bits, and `TruePeakTests` checks both paths against scalar models of their
/// arithmetic, bit for bit. The interpolator is the largest stage of `analyze` (30 % of its time
/// on the 60-minute file, perf). Separate multiplies and adds, in one chain or two: 5.6–5.8 ns per
/// sample (`Micro true-peak`); one chain of fused multiply-adds: 3.0 ns, but `analyze` of the
/// 60-minute file only 1.58 → 1.52 s (its outputs waited on the chain's latency); two chains:
/// 1.7 ns, and `analyze` 1.58 → 1.31 s (medians of 5 alternating runs). Four phases sharing each load were slower
/// (4.5 ns), as LLVM turns the overlapping loads into shuffles.
public enum TruePeakAVX2 {
    /// One output as the eight-wide loop computes it: the even taps from c[0]·x[i] and the odd ones
    /// from c[1]·x[i−1], each further tap a fused multiply-add, then the two sums added.
    @inline(__always)
    public static func fusedSum(_ samples: UnsafePointer<Float>, _ index: Int, _ c: UnsafePointer<Float>) -> Float {
        var even = c[0] * samples[index], odd = c[1] * samples[index &- 1]
        for tap in stride(from: 2, to: 12, by: 2) {
            even = even.addingProduct(c[tap], samples[index &- tap])
            odd = odd.addingProduct(c[tap &+ 1], samples[index &- tap &- 1])
        }
        return even + odd
    }

    /// For each stretch of `stretch` outputs from `start` to `end` (at most four), max |x| over
    /// the inputs its outputs read (`lookBehind` before it): the bounds `TruePeakMeter` tests the
    /// stretches against, in one call (four calls per block were 3 % of analyze's time, perf).
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
            let bits = UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD8<UInt32>.self) & 0x7fff_ffff
            let magnitude = unsafeBitCast(bits, to: SIMD8<Float>.self)
            largest.replace(with: magnitude, where: magnitude .> largest)
            index &+= 8
        }
        var result = max(
            max(max(largest[0], largest[1]), max(largest[2], largest[3])), max(max(largest[4], largest[5]), max(largest[6], largest[7])))
        while index < range.upperBound {
            result = max(result, abs(samples[index]))
            index &+= 1
        }
        return result
    }

    /// The largest |Σₖ c[k]·x[i−k]| for i in `outputs` (reading 11 samples before the first).
    public static func largestMagnitude(_ samples: UnsafePointer<Float>, outputs: Range<Int>, coefficients c: UnsafePointer<Float>) -> Float {
        let (c0, c1, c2, c3, c4, c5) = (c[0], c[1], c[2], c[3], c[4], c[5])
        let (c6, c7, c8, c9, c10, c11) = (c[6], c[7], c[8], c[9], c[10], c[11])
        func load(_ index: Int) -> SIMD8<Float> { UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD8<Float>.self) }
        var largest = SIMD8<Float>(repeating: 0)
        var index = outputs.lowerBound
        while index &+ 8 <= outputs.upperBound {
            var even = c0 * load(index)
            var odd = c1 * load(index &- 1)
            even = even.addingProduct(c2, load(index &- 2))
            odd = odd.addingProduct(c3, load(index &- 3))
            even = even.addingProduct(c4, load(index &- 4))
            odd = odd.addingProduct(c5, load(index &- 5))
            even = even.addingProduct(c6, load(index &- 6))
            odd = odd.addingProduct(c7, load(index &- 7))
            even = even.addingProduct(c8, load(index &- 8))
            odd = odd.addingProduct(c9, load(index &- 9))
            even = even.addingProduct(c10, load(index &- 10))
            odd = odd.addingProduct(c11, load(index &- 11))
            let sum = even + odd
            let magnitude = sum.replacing(with: -sum, where: sum .< 0)
            largest.replace(with: magnitude, where: magnitude .> largest)
            index &+= 8
        }
        var result = max(
            max(max(largest[0], largest[1]), max(largest[2], largest[3])), max(max(largest[4], largest[5]), max(largest[6], largest[7])))
        while index < outputs.upperBound {
            result = max(result, abs(fusedSum(samples, index, c)))
            index &+= 1
        }
        return result
    }
}
