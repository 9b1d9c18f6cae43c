import SignalPathAVX2

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
    /// Samples before a range's first time that the outputs read, and samples from its end on.
    let lookBehind: Int
    let lookAhead: Int
    /// No output exceeds the largest input magnitude within reach times this: the product of the
    /// stages' Σ|coefficients| (at least 1: each stage also passes its input on) and `parabolaBound`.
    let gainBound: Float
    /// The most a parabola can add to the local maximum it refines: the 8× grid holds nothing above
    /// fs/2 (1/16 of its rate) but the stages' leakage, so its vertex lies within half a step of
    /// the grid's local maximum and adds at most ω²·P·(δ/2)²/2 = π²/512 ≈ 1.9 % (ω = π per sample,
    /// δ = ⅛); 3 % leaves room for the leakage.
    static let parabolaBound: Float = 1.03
    /// Input samples per block: the skip test's unit, and the scratch's size.
    static let blockSize = 256

    /// Half-band stages as (pairs, Kaiser β): stage 1 flat within ±0.0013 (0.011 dB) to 0.45·fs,
    /// stage 2 to 0.225 of its rate (±0.0011), stage 3 to 0.1125 (±0.0016), each β the one with the
    /// smallest passband error for its pairs (searched in steps of 0.25). Stages 2 and 3 are
    /// written out for their 4 and 2 pairs in `interpolate`.
    static let design: [(pairs: Int, beta: Double)] = [(20, 6.25), (4, 6.75), (2, 4.0)]

    static let shared = OversamplingInterpolator()
    /// Stage 1 eight midpoints at a time, with fused multiply-adds, in `HalfBandAVX2` where the
    /// processor has AVX2 and FMA.
    static let wide = ProcessorFeatures.hasX86_64_v3

    init() {
        stages = Self.design.map { Self.halfBand(pairs: $0.pairs, beta: $0.beta) }
        precondition(stages[1].count == 4 && stages[2].count == 2)
        // The 8× phases are needed for one sample either side of a block (the parabola's
        // neighbours); stage 3 reads stage 2's outputs one sample further, stage 2 stage 1's two
        // samples further, and stage 1 reads its pairs: 23 samples back and 24 on (the last at
        // index end + 23).
        lookBehind = 1 + 1 + 2 + (stages[0].count - 1)
        lookAhead = 1 + 1 + 2 + stages[0].count
        gainBound = stages.reduce(Self.parabolaBound) { $0 * max(1, 2 * $1.reduce(0) { $0 + abs($1) }) }
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
        let block = Self.blockSize
        // Stage 1's midpoints for the block and 4 samples either side, stage 2's for 2 either side
        // (with room for whole groups of four), the groups' largest magnitudes.
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * (block + 8) + block / 4 + 1) { scratch -> Float in
            let base = scratch.baseAddress!
            let buffers = Scratch(m1: base, qa: base + (block + 8), qb: base + 2 * (block + 8), groupMax: base + 3 * (block + 8))
            var peak = floor
            var blockStart = times.lowerBound
            while blockStart < times.upperBound {
                let blockEnd = min(blockStart + block, times.upperBound)
                if TruePeakMeter.largestMagnitude(samples, (blockStart - lookBehind)..<(blockEnd + lookAhead)) * gainBound > peak {
                    peak = max(peak, interpolate(samples, blockStart..<blockEnd, buffers, above: peak))
                }
                blockStart = blockEnd
            }
            return peak
        }
    }

    /// The block's scratch: stage 1's midpoints `m1` (between x[i] and x[i + 1]), stage 2's `qa`
    /// (between x[i] and m1[i]) and `qb` (between m1[i] and x[i + 1]), and the largest magnitude
    /// of each group of four samples' 32 grid values.
    private struct Scratch {
        var m1, qa, qb, groupMax: UnsafeMutablePointer<Float>
    }

    /// One block: the eight phases at i, i + ⅛, …, i + ⅞ for every sample i of the block and one
    /// either side — x, p1, qa, p3, m1, p5, qb, p7 — each computed for four samples at a time from
    /// the one before, without interleaving them into one grid; then their largest magnitude,
    /// and where it could beat `floor`, a parabola through each local maximum and its neighbours.
    /// Scratch index k holds sample a − 4 + k (m1), a − 2 + k (qa, qb), a − 1 + k (odd phases),
    /// a being the block's first sample.
    private func interpolate(_ x: UnsafePointer<Float>, _ block: Range<Int>, _ scratch: Scratch, above floor: Float) -> Float {
        let n = block.count, a = block.lowerBound
        stage1(x, block, into: scratch.m1)
        let blockLargest: Float
        if Self.wide {
            blockLargest = HalfBandAVX2.laterStages(
                x, block: a, count: n, m1: scratch.m1, qa: scratch.qa, qb: scratch.qb, groupMax: scratch.groupMax,
                stage2: (stages[1][0], stages[1][1], stages[1][2], stages[1][3]), stage3: (stages[2][0], stages[2][1]))
        } else {
            blockLargest = laterStages(x, block, scratch)
        }
        let peak = max(floor, blockLargest)
        guard peak * Self.parabolaBound > floor else { return peak }
        return refined(peak, x, block, scratch)
    }

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<Float>, _ index: Int) -> SIMD4<Float> {
        UnsafeRawPointer(pointer + index).loadUnaligned(as: SIMD4<Float>.self)
    }

    @inline(__always)
    private static func store(_ value: SIMD4<Float>, _ pointer: UnsafeMutablePointer<Float>, _ index: Int) {
        UnsafeMutableRawPointer(pointer + index).storeBytes(of: value, as: SIMD4<Float>.self)
    }

    /// Stage 1: m1 for samples a − 4 … a + n + 3, four at a time and the rest one by one (the
    /// input's reach ends there). Stages 2 and 3 compute whole groups of four past the block's
    /// end into the scratch's room; those lanes are never read as results.
    private func stage1(_ x: UnsafePointer<Float>, _ block: Range<Int>, into m1: UnsafeMutablePointer<Float>) {
        let first = block.lowerBound - 4, count = block.count + 8
        stages[0].withUnsafeBufferPointer { taps in
            let pairs = taps.count
            if Self.wide {
                HalfBandAVX2.midpoints(x, first: first, count: count, taps: taps.baseAddress!, pairs: pairs, into: m1)
                return
            }
            var k = 0
            while k &+ 4 <= count {
                let i = first &+ k
                var sum = SIMD4<Float>(repeating: 0)
                for j in 0..<pairs { sum += taps[j] * (Self.load(x, i &- j) + Self.load(x, i &+ 1 &+ j)) }
                Self.store(sum, m1, k)
                k &+= 4
            }
            while k < count {
                let i = first &+ k
                var sum: Float = 0
                for j in 0..<pairs { sum += taps[j] * (x[i &- j] + x[i &+ 1 &+ j]) }
                m1[k] = sum
                k &+= 1
            }
        }
    }

    /// Stage 3's odd phases p1, p3, p5, p7 for the four samples from scratch index `k` (qa/qb
    /// index = k + 1, m1 = k + 3) of the block starting at sample `a`.
    @inline(__always)
    private static func oddPhases(
        _ x: UnsafePointer<Float>, _ a: Int, _ k: Int, _ scratch: Scratch, _ d0: Float, _ d1: Float
    ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let x0 = load(x, a - 1 + k), xp1 = load(x, a + k), m0 = load(scratch.m1, k + 3)
        let qa0 = load(scratch.qa, k + 1), qap1 = load(scratch.qa, k + 2), qb0 = load(scratch.qb, k + 1), qbm1 = load(scratch.qb, k)
        return (d0 * (x0 + qa0) + d1 * (qbm1 + m0), d0 * (qa0 + m0) + d1 * (x0 + qb0), d0 * (m0 + qb0) + d1 * (qa0 + xp1), d0 * (qb0 + xp1) + d1 * (m0 + qap1))
    }

    /// Stages 2 and 3 where `HalfBandAVX2` does not run: qa and qb stored, the odd phases folded
    /// straight into each group's largest and smallest value (not stored: the parabolas recompute
    /// them for the few groups that need them), magnitudes once per group into `groupMax`.
    /// Returns the block's largest magnitude.
    private func laterStages(_ x: UnsafePointer<Float>, _ block: Range<Int>, _ scratch: Scratch) -> Float {
        let n = block.count, a = block.lowerBound
        let m1 = scratch.m1, qa = scratch.qa, qb = scratch.qb
        // Stage 2: qa and qb for samples a − 2 … a + n + 1 (m1 index = k + 2).
        let (c0, c1, c2, c3) = (stages[1][0], stages[1][1], stages[1][2], stages[1][3])
        var index = 0
        while index < n + 4 {
            let k = index
            let i = a - 2 + k, m = k + 2
            let x0 = Self.load(x, i), xm1 = Self.load(x, i - 1), xp1 = Self.load(x, i + 1), xp2 = Self.load(x, i + 2)
            let mm2 = Self.load(m1, m - 2), mm1 = Self.load(m1, m - 1), m0 = Self.load(m1, m), mp1 = Self.load(m1, m + 1), mp2 = Self.load(m1, m + 2)
            Self.store(c0 * (x0 + m0) + c1 * (mm1 + xp1) + c2 * (xm1 + mp1) + c3 * (mm2 + xp2), qa, k)
            Self.store(c0 * (m0 + xp1) + c1 * (x0 + mp1) + c2 * (mm1 + xp2) + c3 * (xm1 + mp2), qb, k)
            index &+= 4
        }
        // Stage 3: the odd phases for samples a … a + n − 1.
        let (d0, d1) = (stages[2][0], stages[2][1])
        var largest = SIMD4<Float>(repeating: 0)
        var group = 0
        var k = 1
        while k < n + 1 {
            let (p1, p3, p5, p7) = Self.oddPhases(x, a, k, scratch, d0, d1)
            var high = Self.load(x, a - 1 + k), low = high
            @inline(__always)
            func include(_ value: SIMD4<Float>) {
                high.replace(with: value, where: value .> high)
                low.replace(with: value, where: value .< low)
            }
            include(p1)
            include(Self.load(qa, k + 1))
            include(p3)
            include(Self.load(m1, k + 3))
            include(p5)
            include(Self.load(qb, k + 1))
            include(p7)
            var groupLargest = high
            groupLargest.replace(with: -low, where: -low .> high)
            // Lanes past the block's end (in its last group of four) do not count.
            if k + 4 > n + 1 { groupLargest.replace(with: 0, where: SIMD4<Int32>(0, 1, 2, 3) .>= SIMD4<Int32>(repeating: Int32(n + 1 - k))) }
            largest.replace(with: groupLargest, where: groupLargest .> largest)
            scratch.groupMax[group] = groupLargest.largestLane
            group &+= 1
            k &+= 4
        }
        return largest.largestLane
    }

    /// `peak` raised by the parabolas, only in groups whose grid reaches within `parabolaBound`
    /// of it: through each local maximum of the group's 32 grid values (in time order, with the
    /// one before and the one after) and its two neighbours.
    private func refined(_ peak: Float, _ x: UnsafePointer<Float>, _ block: Range<Int>, _ scratch: Scratch) -> Float {
        let n = block.count, a = block.lowerBound
        let m1 = scratch.m1, qa = scratch.qa, qb = scratch.qb
        let (d0, d1) = (stages[2][0], stages[2][1])
        var peak = peak
        let threshold = peak / Self.parabolaBound
        for group in 0..<(n + 3) / 4 where scratch.groupMax[group] > threshold {
            let k = 1 + 4 * group
            let (p1, p3, p5, p7) = Self.oddPhases(x, a, k, scratch, d0, d1)
            // The last phase of the sample before the group (i = a − 2 + k): d0·(qb[i] + x[i + 1]) + d1·(m1[i] + qa[i + 1]).
            let before = d0 * (qb[k] + x[a - 1 + k]) + d1 * (m1[k + 2] + qa[k + 1])
            let phases = (Self.load(x, a - 1 + k), p1, Self.load(qa, k + 1), p3, Self.load(m1, k + 3), p5, Self.load(qb, k + 1), p7)
            var values = (
                abs(before), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0),
                Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0),
                Float(0), Float(0), Float(0), Float(0), Float(0), Float(0)
            )
            withUnsafeMutableBytes(of: &values) { raw in
                let grid = raw.bindMemory(to: Float.self)
                for lane in 0..<4 {
                    grid[1 + 8 * lane] = abs(phases.0[lane])
                    grid[2 + 8 * lane] = abs(phases.1[lane])
                    grid[3 + 8 * lane] = abs(phases.2[lane])
                    grid[4 + 8 * lane] = abs(phases.3[lane])
                    grid[5 + 8 * lane] = abs(phases.4[lane])
                    grid[6 + 8 * lane] = abs(phases.5[lane])
                    grid[7 + 8 * lane] = abs(phases.6[lane])
                    grid[8 + 8 * lane] = abs(phases.7[lane])
                }
                grid[33] = abs(x[a - 1 + k + 4])
                // Only the block's own samples: the last group may hold fewer than four.
                let count = 8 * min(4, n + 1 - k)
                for index in 1...count where grid[index] > threshold && grid[index] >= grid[index - 1] && grid[index] >= grid[index + 1] {
                    peak = max(peak, Self.parabolaPeak(grid[index - 1], grid[index], grid[index + 1]))
                }
            }
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
}
