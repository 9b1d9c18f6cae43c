/// BS.1770's true-peak interpolation, one phase eight outputs at a time, in a module compiled for
/// x86-64-v3 (AVX2): `TruePeakMeter` calls it only on a processor that has those instructions
/// (`ProcessorFeatures`), and the SSE path of `TruePeakMeter.interpolate` otherwise.
///
/// Each output is the same products summed in the same order as on the SSE path (taps 0…11; no
/// fused multiply-add, which Swift does not form unasked), so both give the same bits.
/// (`TruePeakTests` compares them.) The interpolator was the largest stage of `analyze`
/// (47 of 294 instructions per sample, callgrind) and a fifth of `scan`'s time: 4.3 → 3.4 ns per
/// sample (`Micro true-peak`), not half, as LLVM turns the overlapping loads into shuffles. Four
/// phases sharing each load, eight wide, was slower (4.5 ns).
public enum TruePeakAVX2 {
    /// The largest |Σₖ c[k]·x[i−k]| for i in `outputs` (reading 11 samples before the first).
    public static func largestMagnitude(_ samples: UnsafePointer<Float>, outputs: Range<Int>, coefficients c: UnsafePointer<Float>) -> Float {
        let (c0, c1, c2, c3, c4, c5) = (c[0], c[1], c[2], c[3], c[4], c[5])
        let (c6, c7, c8, c9, c10, c11) = (c[6], c[7], c[8], c[9], c[10], c[11])
        func load(_ index: Int) -> SIMD8<Float> { UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD8<Float>.self) }
        var largest = SIMD8<Float>(repeating: 0)
        var index = outputs.lowerBound
        while index &+ 8 <= outputs.upperBound {
            var sum = c0 * load(index)
            sum += c1 * load(index &- 1)
            sum += c2 * load(index &- 2)
            sum += c3 * load(index &- 3)
            sum += c4 * load(index &- 4)
            sum += c5 * load(index &- 5)
            sum += c6 * load(index &- 6)
            sum += c7 * load(index &- 7)
            sum += c8 * load(index &- 8)
            sum += c9 * load(index &- 9)
            sum += c10 * load(index &- 10)
            sum += c11 * load(index &- 11)
            let magnitude = sum.replacing(with: -sum, where: sum .< 0)
            largest.replace(with: magnitude, where: magnitude .> largest)
            index &+= 8
        }
        var result = max(
            max(max(largest[0], largest[1]), max(largest[2], largest[3])), max(max(largest[4], largest[5]), max(largest[6], largest[7])))
        while index < outputs.upperBound {
            var sum: Float = 0
            for tap in 0..<12 { sum += c[tap] * samples[index &- tap] }
            result = max(result, abs(sum))
            index &+= 1
        }
        return result
    }
}
