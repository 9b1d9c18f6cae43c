import Foundation

/// The `accurate` true peak: the signal interpolated 8× by three half-band stages, and the largest
/// magnitude among the interpolated values, each local maximum refined by a parabola through it
/// and its two neighbours.
///
/// Equivalent to one 8-phase polyphase FIR of 347 taps at 8× (43 input samples per phase): flat
/// within −0.004 … +0.010 dB to 0.45·fs, −6 dB at 0.5·fs, images from 0.55·fs down ≥ 60 dB. Built
/// as a cascade because each half-band stage keeps the samples it is given and computes only the
/// midpoints from symmetric pairs: 36 multiplications per input sample where the direct form
/// needs ~300 (BS.1770's 4×: 48). Every stage is symmetric, so the grid falls on the samples and
/// on exact eighths between them.
///
/// Chosen by measurement (docs/ANALYZE.md, "True peak"), on 168 signals with tapered ends whose
/// continuous peak is known (sums of 1–8 sines up to 0.45·fs, odd-harmonic square-like waves,
/// fs/4 at 45°; 44.1, 48 and 96 kHz), error of the reading against the analytic peak:
/// - BS.1770's 4× FIR: −0.52 … +0.24 dB (it under-reads near 0.45·fs, and its passband ripple
///   over-reads).
/// - single-stage 4× Kaiser polyphase FIRs of 16–32 taps per phase with a parabola: worst 0.10–0.63
///   dB (a passband flat to 0.45·fs needs ≥ 30 taps per phase: 120+ multiplications).
/// - half-band stages with K pairs each (stage 1's K sets the passband): 4× (20, 4) with parabola
///   0.019 dB; 8× (16, 3, 2) 0.044; 8× (20, 4, 2) 0.017 — and 0.062 without the parabola; 16× (20, 4,
///   2, 2) without it 0.017. 4× with a parabola is exact enough for content to 0.45·fs but reads a
///   tone at fs/2 0.48 dB low (the parabola meets |x|'s cusps); at 8× that is 0.005 dB, so 8×.
struct OversamplingInterpolator: Sendable {
    /// Per stage, the midpoint coefficients `c[j]` for the pair of samples `j` either side:
    /// mid(i, i+1) = Σ c[j]·(x[i − j] + x[i + 1 + j]).
    let stages: [[Float]]
    /// Input samples of margin around a block, so that the last stage covers the block's times
    /// and one grid step either side (for the parabola's neighbours).
    let margin: Int
    /// Samples before a range's first time that the first stage reads, and samples at and after
    /// its end.
    let lookBehind: Int
    let lookAhead: Int
    /// No output exceeds the largest input magnitude within reach times this: the product of the
    /// stages' Σ|coefficients| (at least 1: each stage also passes its input on), and 9/8, the most
    /// a parabola through a local maximum b and neighbours a, c ≥ 0 can add ((a − c)² / 8(2b − a − c) ≤ b/8).
    let gainBound: Float
    /// Input samples per block: the skip test's unit, and the scratch's size.
    static let blockSize = 256

    /// Half-band stages as (pairs, Kaiser β): stage 1 flat within ±0.0013 (0.011 dB) to 0.45·fs,
    /// stage 2 to 0.225 of its rate (±0.0011), stage 3 to 0.1125 (±0.0016), each β the one with the
    /// smallest passband error for its pairs (searched in steps of 0.25).
    static let design: [(pairs: Int, beta: Double)] = [(20, 6.25), (4, 6.75), (2, 4.0)]

    static let shared = OversamplingInterpolator(design: design)

    init(design: [(pairs: Int, beta: Double)]) {
        stages = design.map { Self.halfBand(pairs: $0.pairs, beta: $0.beta) }
        // The last grid needs times a − 1/8 … b; stage s loses (pairs − 1) of its own input samples at
        // each side, 2^(s−1) of them to an input sample. Found by walking the valid ranges back.
        var lost = 0.0
        for (index, stage) in stages.enumerated().dropFirst() { lost += Double(stage.count) / Double(1 << index) }
        margin = Int((lost + 1).rounded(.up))
        lookBehind = margin + stages[0].count - 1
        lookAhead = margin + stages[0].count
        gainBound = stages.reduce(Float(1)) { $0 * max(1, 2 * $1.reduce(0) { $0 + abs($1) }) } * 1.125
    }

    /// A half-band interpolator's midpoint taps: the ideal sin(πk)/(πk) at k = j + ½, windowed by
    /// Kaiser(β) over ±`pairs`, scaled so that a constant passes unchanged (Σ 2c = 1).
    static func halfBand(pairs: Int, beta: Double) -> [Float] {
        let taps = (0..<pairs).map { j -> Double in
            let k = Double(j) + 0.5
            let ratio = k / Double(pairs)
            return sin(Double.pi * k) / (Double.pi * k) * besselI0(beta * (1 - ratio * ratio).squareRoot())
        }
        let sum = 2 * taps.reduce(0, +)
        return taps.map { Float($0 / sum) }
    }

    /// The modified Bessel function of the first kind, order 0, by its power series.
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > sum * 1e-17 {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }

    /// The largest interpolated magnitude at times `times` (in input samples: from the first
    /// sample of the range to just before the sample after its last) of `samples`, or `floor`
    /// when none exceeds it. Reads `lookBehind` samples before and `lookAhead` from the range's end.
    func peak(_ samples: UnsafePointer<Float>, times: Range<Int>, above floor: Float) -> Float {
        let lengths = scratchLengths(block: Self.blockSize)
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: lengths.reduce(0, +)) { scratch -> Float in
            let base = scratch.baseAddress!
            var levels: [UnsafeMutablePointer<Float>] = [UnsafeMutablePointer(mutating: samples)]
            var offset = 0
            for length in lengths {
                levels.append(base + offset)
                offset += length
            }
            var peak = floor
            var blockStart = times.lowerBound
            while blockStart < times.upperBound {
                let blockEnd = min(blockStart + Self.blockSize, times.upperBound)
                if TruePeakMeter.largestMagnitude(samples, (blockStart - lookBehind)..<(blockEnd + lookAhead)) * gainBound > peak {
                    peak = max(peak, interpolate(samples, blockStart..<blockEnd, levels: levels, above: peak))
                }
                blockStart = blockEnd
            }
            return peak
        }
    }

    /// The lengths of the grids at 2×, 4×, 8× for a block of `block` input samples.
    private func scratchLengths(block: Int) -> [Int] {
        var lengths: [Int] = []
        var length = block + 2 * margin
        for _ in stages {
            length *= 2
            lengths.append(length)
        }
        return lengths
    }

    /// One block: each stage's grid from the one before (stage 1 from the input, starting `margin`
    /// samples before the block), then the largest magnitude of the last grid at the block's times,
    /// each local maximum that could beat `floor` refined by a parabola.
    private func interpolate(_ samples: UnsafePointer<Float>, _ block: Range<Int>, levels: [UnsafeMutablePointer<Float>], above floor: Float) -> Float {
        let inputCount = block.count + 2 * margin
        // Valid indices of each level's grid: stage s keeps the grid before it where it can compute
        // the midpoints, i.e. (pairs − 1) samples in from either end.
        var valid = 0..<inputCount
        var source = UnsafePointer(samples + (block.lowerBound - margin))
        for (index, taps) in stages.enumerated() {
            let target = levels[index + 1]
            let computable = index == 0 ? valid : (valid.lowerBound + taps.count - 1)..<(valid.upperBound - taps.count)
            Self.halfBand(source, computable, taps: taps, into: target)
            valid = 2 * computable.lowerBound..<2 * computable.upperBound
            source = UnsafePointer(target)
        }
        // The last grid's index of the block's first time, and its step per input sample.
        let factor = 1 << stages.count
        let first = margin * factor, last = first + block.count * factor
        precondition(valid.lowerBound <= first - 1 && last + 1 <= valid.upperBound)
        let grid = source
        var peak = floor
        let parabolaFloor = floor / 1.125
        var previous = abs(grid[first - 1]), current = abs(grid[first])
        for index in first..<last {
            let next = abs(grid[index + 1])
            if current > parabolaFloor && current >= previous && current >= next {
                peak = max(peak, Self.parabolaPeak(previous, current, next))
            }
            previous = current
            current = next
        }
        return peak
    }

    /// The vertex of the parabola through (−1, a), (0, b), (1, c) with b ≥ a, c: b + (a − c)² / 8(2b − a − c).
    @inline(__always)
    static func parabolaPeak(_ a: Float, _ b: Float, _ c: Float) -> Float {
        let curvature = 2 * b - a - c
        guard curvature > 0 else { return b }
        let slope = a - c
        return b + slope * slope / (8 * curvature)
    }

    /// One half-band stage: for each `i` in `range`, `output[2i] = input[i]` and `output[2i + 1]` the
    /// midpoint of input[i] and input[i + 1]; four midpoints at a time over unaligned loads.
    private static func halfBand(_ input: UnsafePointer<Float>, _ range: Range<Int>, taps: [Float], into output: UnsafeMutablePointer<Float>) {
        func load(_ index: Int) -> SIMD4<Float> { UnsafeRawPointer(input + index).loadUnaligned(as: SIMD4<Float>.self) }
        taps.withUnsafeBufferPointer { taps in
            let count = taps.count
            var index = range.lowerBound
            while index &+ 4 <= range.upperBound {
                var sum = SIMD4<Float>(repeating: 0)
                for j in 0..<count { sum += taps[j] * (load(index &- j) + load(index &+ 1 &+ j)) }
                for lane in 0..<4 {
                    output[2 &* (index &+ lane)] = input[index &+ lane]
                    output[2 &* (index &+ lane) &+ 1] = sum[lane]
                }
                index &+= 4
            }
            while index < range.upperBound {
                var sum: Float = 0
                for j in 0..<count { sum += taps[j] * (input[index &- j] + input[index &+ 1 &+ j]) }
                output[2 &* index] = input[index]
                output[2 &* index &+ 1] = sum
                index &+= 1
            }
        }
    }
}
