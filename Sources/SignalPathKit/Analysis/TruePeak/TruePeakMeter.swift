import SignalPathAVX2

/// True peak by ITU-R BS.1770-4 Annex 2 (`.bs1770`, the default): the signal interpolated 4× with
/// the Recommendation's 48-tap FIR (four phases of 12 taps), and the largest magnitude among the
/// interpolated values; or by `OversamplingInterpolator` (`.accurate`).
///
/// The filter's taps are symmetric about 23.5 (in 4× samples), so its outputs fall at ⅛, ⅜, ⅝
/// and ⅞ of the way between input samples, none on them; the reported true peak is therefore
/// the larger of this and the sample peak, which a true peak can never be below.
///
/// Outputs are indexed by the input sample they end at: output `i` of `.bs1770` reads samples
/// i − 11 … i and stands for the signal between samples i − 6 and i − 5 (`delay` = 6). The
/// accurate interpolator's outputs at `i` stand for the times from sample i to just before i + 1
/// (`delay` = 0), and read `lookBehind` samples before and `lookAhead` from there on.
public struct TruePeakMeter: Sendable {
    public let mode: TruePeakMode
    /// The Recommendation's coefficients, one row per phase.
    static let phases: [[Float]] = [
        [
            0.0017089843750, 0.0109863281250, -0.0196533203125, 0.0332031250000, -0.0594482421875, 0.1373291015625,
            0.9721679687500, -0.1022949218750, 0.0476074218750, -0.0266113281250, 0.0148925781250, -0.0083007812500,
        ],
        [
            -0.0291748046875, 0.0292968750000, -0.0517578125000, 0.0891113281250, -0.1665039062500, 0.4650878906250,
            0.7797851562500, -0.2003173828125, 0.1015625000000, -0.0582275390625, 0.0330810546875, -0.0189208984375,
        ],
        [
            -0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625000000, -0.2003173828125, 0.7797851562500,
            0.4650878906250, -0.1665039062500, 0.0891113281250, -0.0517578125000, 0.0292968750000, -0.0291748046875,
        ],
        [
            -0.0083007812500, 0.0148925781250, -0.0266113281250, 0.0476074218750, -0.1022949218750, 0.9721679687500,
            0.1373291015625, -0.0594482421875, 0.0332031250000, -0.0196533203125, 0.0109863281250, 0.0017089843750,
        ],
    ]
    /// Input samples each output depends on: itself and the 11 before.
    public static let taps = 12
    /// No output of phase p can exceed the largest input magnitude among its taps times
    /// `gainBounds[p]` (the phase's sum of |coefficient|, raised by 10⁻⁴ so that the rounding of
    /// the sums cannot slip past it): 1.43 for the outer phases, 2.02 for the middle two. The
    /// phases whose bound cannot beat the running peak are not interpolated over that stretch.
    static let gainBounds = SIMD4(phases.map { $0.reduce(0) { $0 + abs($1) } * 1.0001 })
    /// The mirrored pairs' folded taps for `TruePeakAVX2`: the outer pair (phases 0 and 3), then
    /// the middle pair (1 and 2), each the sums c[k] + c[11−k] then the differences c[k] − c[11−k]
    /// of its first phase's taps c.
    static let foldedTaps: [Float] = [0, 1].flatMap { phase -> [Float] in
        let c = phases[phase]
        precondition(Array(c.reversed()) == phases[3 - phase], "BS.1770's phases mirror each other")
        return (0..<6).map { c[$0] + c[11 - $0] } + (0..<6).map { c[$0] - c[11 - $0] }
    }
    /// Outputs per block: `locatePeak` remembers blocks, `peak` interpolates at most a block's
    /// outputs per call.
    static let blockSize = 256
    /// Outputs per stretch of the skip test. One bound for the block (256) and all four phases,
    /// as before, interpolated 93 % of the pink-noise channel of the bench file in chunks whose
    /// floor is their sample peak; a bound per phase over 64 outputs, 32 % (numpy model of the
    /// bench file's first 10 minutes). A steady tone's stretches all reach its peak either way,
    /// and consecutive stretches are interpolated in one call.
    static let stretchSize = 64

    public init(mode: TruePeakMode = .bs1770) {
        self.mode = mode
    }

    /// Samples before `range.lowerBound` that the outputs read.
    public var lookBehind: Int { mode == .bs1770 ? Self.taps - 1 : OversamplingInterpolator.shared.lookBehind }
    /// Samples from `range.upperBound` on that the outputs read.
    public var lookAhead: Int { mode == .bs1770 ? 0 : OversamplingInterpolator.shared.lookAhead }
    /// Output `i` stands for the signal from sample i − delay on (to just before the next sample).
    public var delay: Int { mode == .bs1770 ? 6 : 0 }

    /// The largest interpolated magnitude for the outputs at samples `range` of `samples` (one
    /// channel, contiguous; the outputs read `lookBehind` samples before `range` and `lookAhead`
    /// after it), or `floor` when none exceeds it. A phase is not interpolated over a stretch whose
    /// inputs cannot make it exceed the peak so far, so the answer is exact above `floor`.
    public func peak(_ samples: UnsafeBufferPointer<Float>, range: Range<Int>, above floor: Float) -> Float {
        precondition(range.lowerBound >= lookBehind && range.upperBound + lookAhead <= samples.count)
        guard let base = samples.baseAddress else { return floor }
        if mode == .accurate { return OversamplingInterpolator.shared.peak(base, times: range, above: floor) }
        var peak = floor
        var blockStart = range.lowerBound
        // The outer pair's bound is the smaller: a stretch needs the middle pair, or all four phases, or none.
        let (outerBound, middleBound) = (max(Self.gainBounds[0], Self.gainBounds[3]), max(Self.gainBounds[1], Self.gainBounds[2]))
        func needs(_ largest: Float, _ peak: Float) -> (any: Bool, all: Bool) { (largest * middleBound > peak, largest * outerBound > peak) }
        while blockStart < range.upperBound {
            let blockEnd = min(blockStart + Self.blockSize, range.upperBound)
            let stretches = (blockEnd - blockStart + Self.stretchSize - 1) / Self.stretchSize
            let largest = Self.stretchMagnitudes(base, from: blockStart, to: blockEnd)
            // Runs of stretches that need the same phases, each run interpolated in one call.
            var stretch = 0
            while stretch < stretches {
                let need = needs(largest[stretch], peak)
                guard need.any else {
                    stretch += 1
                    continue
                }
                var end = stretch + 1
                while end < stretches && needs(largest[end], peak) == need { end += 1 }
                let outputs = (blockStart + stretch * Self.stretchSize)..<min(blockStart + end * Self.stretchSize, blockEnd)
                peak = max(peak, Self.interpolate(base, outputs, allPhases: need.all, wide: Self.wide))
                stretch = end
            }
            blockStart = blockEnd
        }
        return peak
    }

    /// For each stretch of the block `start..<end` (at most four), the largest input magnitude
    /// among the inputs its outputs read: eight at a time in `TruePeakAVX2` when `wide` (four at
    /// a time, the bounds were a sixth of the true peak's time in `analyze`, perf).
    static func stretchMagnitudes(_ samples: UnsafePointer<Float>, from start: Int, to end: Int, wide: Bool = TruePeakMeter.wide) -> SIMD4<Float> {
        if wide { return TruePeakAVX2.stretchMagnitudes(samples, from: start, to: end, stretch: stretchSize, lookBehind: taps - 1) }
        var result = SIMD4<Float>()
        var first = start, lane = 0
        while first < end {
            result[lane] = largestMagnitude(samples, (first - taps + 1)..<min(first + stretchSize, end), wide: false)
            first += stretchSize
            lane += 1
        }
        return result
    }

    /// max |x| over `range`, four at a time; eight at a time in `TruePeakAVX2` when `wide`.
    static func largestMagnitude(_ samples: UnsafePointer<Float>, _ range: Range<Int>, wide: Bool = TruePeakMeter.wide) -> Float {
        if wide { return TruePeakAVX2.largestMagnitude(samples, range) }
        var largest = SIMD4<Float>(repeating: 0)
        var index = range.lowerBound
        while index &+ 4 <= range.upperBound {
            let value = UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD4<Float>.self)
            let magnitude = value.replacing(with: -value, where: value .< 0)
            largest.replace(with: magnitude, where: magnitude .> largest)
            index &+= 4
        }
        var result = largest.largestLane
        while index < range.upperBound {
            result = max(result, abs(samples[index]))
            index &+= 1
        }
        return result
    }

    /// Whether `interpolate` takes eight outputs at a time over the folded pairs (`TruePeakAVX2`):
    /// on processors with AVX2 and FMA.
    static let wide = ProcessorFeatures.hasX86_64_v3

    /// The largest output magnitude over `outputs` of the middle phases (1 and 2), or of all four
    /// when `allPhases`: eight outputs at a time over the mirrored pairs' folded taps in
    /// `TruePeakAVX2` when `wide`, a phase at a time otherwise.
    static func interpolate(_ samples: UnsafePointer<Float>, _ outputs: Range<Int>, allPhases: Bool, wide: Bool) -> Float {
        if wide {
            return foldedTaps.withUnsafeBufferPointer { taps in
                allPhases
                    ? TruePeakAVX2.largestMagnitude(samples, outputs: outputs, bothPairs: taps.baseAddress!)
                    : TruePeakAVX2.largestMagnitude(samples, outputs: outputs, pair: taps.baseAddress! + TruePeakAVX2.foldedTapsPerPair)
            }
        }
        let middle = max(interpolate(samples, outputs, phase: 1), interpolate(samples, outputs, phase: 2))
        return allPhases ? max(middle, interpolate(samples, outputs, phase: 0), interpolate(samples, outputs, phase: 3)) : middle
    }

    /// The largest magnitude of one phase's outputs over `block`, four outputs at a time: each a
    /// 12-tap dot product over unaligned loads (the compiler keeps the 12 coefficients in
    /// registers). Sharing each load among the four phases instead was no faster (`Micro
    /// true-peak`): the multiplies and adds are the limit.
    static func interpolate(_ samples: UnsafePointer<Float>, _ block: Range<Int>, phase: Int) -> Float {
        let c = phases[phase]
        let (c0, c1, c2, c3, c4, c5) = (c[0], c[1], c[2], c[3], c[4], c[5])
        let (c6, c7, c8, c9, c10, c11) = (c[6], c[7], c[8], c[9], c[10], c[11])
        func load(_ index: Int) -> SIMD4<Float> { UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD4<Float>.self) }
        var largest = SIMD4<Float>(repeating: 0)
        var index = block.lowerBound
        while index &+ 4 <= block.upperBound {
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
            // Compare-and-select rather than the generic pointwiseMax, which is not inlined.
            let magnitude = sum.replacing(with: -sum, where: sum .< 0)
            largest.replace(with: magnitude, where: magnitude .> largest)
            index &+= 4
        }
        var result = largest.largestLane
        while index < block.upperBound {
            result = max(result, outputMagnitude(samples, index, phase: phase, wide: false))
            index &+= 1
        }
        return result
    }

    /// |y| of `phase`'s output at `index`, summed as `interpolate` sums on that path: tap after tap
    /// in the four-wide loop; on the folded path half of |S + D| for a pair's first phase and of
    /// |S − D| for its second, whose larger is the kernels' (|S| + |D|)/2 to the bit (rounding is
    /// symmetric, so |S + D| with S and D of one sign rounds as |S| + |D| does).
    static func outputMagnitude(_ samples: UnsafePointer<Float>, _ index: Int, phase: Int, wide: Bool) -> Float {
        if wide {
            let (pair, first) = (phase == 0 || phase == 3 ? 0 : 1, phase < 2)
            let (sum, difference) = foldedTaps.withUnsafeBufferPointer {
                TruePeakAVX2.foldedPair(samples, index, $0.baseAddress! + pair * TruePeakAVX2.foldedTapsPerPair)
            }
            return abs(first ? sum + difference : sum - difference) * 0.5
        }
        let c = phases[phase]
        var sum = c[0] * samples[index]
        for tap in 1..<taps { sum += c[tap] * samples[index - tap] }
        return abs(sum)
    }
}
