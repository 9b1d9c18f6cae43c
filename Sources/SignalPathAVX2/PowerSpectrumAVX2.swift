/// A segment's |X|² and what the analyses take from it, in one pass over its spectrum, in the
/// module compiled for x86-64-v3 (AVX2): the power of each bin stored, added to a per-bin sum in
/// Double, and over a band, the strongest bin and the band's power. `SegmentTransform` calls it
/// only where the processor has AVX2, and runs its three separate passes otherwise; the results are
/// theirs bit for bit (`SegmentTransformTests`): each power is re·re + im·im, multiplies then an
/// add; each sum adds one Float at a time; the band's power is summed in four Double lanes counted
/// from the band's first bin, as `strongestBin` sums it, with the bins outside the band added as
/// zeros (exact), and the bins past its last whole group of four added one by one. One pass,
/// because the spectrum no longer fits the first-level cache beside the FFT's buffers
/// (docs/DECISIONS.md#segment-loops).
public enum PowerSpectrumAVX2 {
    /// `spectrum`: `bins` complex values as interleaved (re, im) Floats. Writes `power[0..<bins]`,
    /// adds each to `sums[0..<bins]`, and returns the first bin of `band` holding its largest
    /// power and the band's power (nil without a band).
    public static func power(
        _ spectrum: UnsafePointer<Float>, bins: Int, into power: UnsafeMutablePointer<Float>, adding sums: UnsafeMutablePointer<Double>,
        band: ClosedRange<Int>?
    ) -> (bin: Int, power: Double)? {
        // The band's sum: bins lo..<wholeEnd in four lanes (lane (bin − lo) mod 4), the rest alone.
        let lo = band?.lowerBound ?? 0, hi = band?.upperBound ?? -1
        precondition(lo >= 0 && hi < bins)
        let wholeEnd = lo + (hi + 1 - lo) / 4 * 4
        var laneSums = SIMD4<Double>()  // by bin mod 4
        // Groups of eight wholly inside lo..<wholeEnd go through the vector lanes; the bins of the
        // band in other groups, and the last bins, through `strongest` one by one.
        var largest = SIMD8<Float>(repeating: -1)
        var largestAt = SIMD8<Int32>(repeating: Int32(lo))
        var strongest = lo, strongestPower: Float = -1
        func single(_ bin: Int, _ value: Float) {
            guard bin >= lo && bin <= hi else { return }
            if bin < wholeEnd { laneSums[bin & 3] += Double(value) }
            if value > strongestPower {
                strongest = bin
                strongestPower = value
            }
        }
        let offsets = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        var bin = 0
        while bin &+ 8 <= bins {
            let pairs = UnsafeRawPointer(spectrum + 2 &* bin).loadUnaligned(as: SIMD16<Float>.self)
            let re = pairs.evenHalf, im = pairs.oddHalf
            let value = re * re + im * im
            UnsafeMutableRawPointer(power + bin).storeBytes(of: value, as: SIMD8<Float>.self)
            let low = SIMD4<Double>(value.lowHalf), high = SIMD4<Double>(value.highHalf)
            let target = UnsafeMutableRawPointer(sums + bin)
            target.storeBytes(of: target.loadUnaligned(as: SIMD4<Double>.self) + low, as: SIMD4<Double>.self)
            (target + 32).storeBytes(of: (target + 32).loadUnaligned(as: SIMD4<Double>.self) + high, as: SIMD4<Double>.self)
            if bin >= lo && bin &+ 8 <= wholeEnd {
                let greater = value .> largest
                largest.replace(with: value, where: greater)
                largestAt.replace(with: offsets &+ Int32(truncatingIfNeeded: bin), where: greater)
                laneSums += low
                laneSums += high
            } else if bin &+ 8 > lo && bin <= hi {
                for lane in 0..<8 { single(bin &+ lane, value[lane]) }
            }
            bin &+= 8
        }
        while bin < bins {
            let re = spectrum[2 &* bin], im = spectrum[2 &* bin &+ 1]
            let value = re * re + im * im
            power[bin] = value
            sums[bin] += Double(value)
            single(bin, value)
            bin &+= 1
        }
        guard band != nil else { return nil }
        // The strongest: the largest power, the earliest bin of equals.
        for lane in 0..<8 where largest[lane] > strongestPower || (largest[lane] == strongestPower && Int(largestAt[lane]) < strongest) {
            strongest = Int(largestAt[lane])
            strongestPower = largest[lane]
        }
        let lane = lo & 3
        let relative = SIMD4(laneSums[lane], laneSums[(lane + 1) & 3], laneSums[(lane + 2) & 3], laneSums[(lane + 3) & 3])
        var total = (relative[0] + relative[1]) + (relative[2] + relative[3])
        for bin in wholeEnd..<hi + 1 { total += Double(power[bin]) }
        return (strongest, total)
    }
}
