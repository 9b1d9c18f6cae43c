/// The `accurate` true-peak interpolator (`OversamplingInterpolator`) eight samples at a time, in
/// the module compiled for x86-64-v3 (AVX2 and FMA); the interpolator calls it only where the
/// processor has them (`ProcessorFeatures`), its four-at-a-time loops otherwise. The first
/// half-band stage (20 of the interpolator's 36 multiplications per input sample) sums its even and
/// odd pairs in two chains of fused multiply-adds, two groups of eight in step; stages 2 and 3 and
/// the groups' largest values are the baseline's arithmetic, eight wide. `TruePeakTests` holds the
/// first stage to a scalar model of its arithmetic and the whole to the naive cascade in Double
/// (docs/DECISIONS.md#true-peak-kernels).
public enum HalfBandAVX2 {
    /// m[k] = Σⱼ taps[j]·(x[i − j] + x[i + 1 + j]) for i = first + k, k in 0..<count: the even j in
    /// one chain from j = 0, the odd in another from j = 1 (`pairs` ≥ 2), then their sum.
    public static func midpoints(
        _ x: UnsafePointer<Float>, first: Int, count: Int, taps: UnsafePointer<Float>, pairs: Int, into m: UnsafeMutablePointer<Float>
    ) {
        func load(_ index: Int) -> SIMD8<Float> { UnsafeRawPointer(x + index).loadUnaligned(as: SIMD8<Float>.self) }
        var k = 0
        while k &+ 16 <= count {
            // Two groups of eight in step: four chains in flight.
            let i = first &+ k, i2 = i &+ 8
            var even = taps[0] * (load(i) + load(i &+ 1))
            var odd = taps[1] * (load(i &- 1) + load(i &+ 2))
            var even2 = taps[0] * (load(i2) + load(i2 &+ 1))
            var odd2 = taps[1] * (load(i2 &- 1) + load(i2 &+ 2))
            var j = 2
            while j &+ 1 < pairs {
                even = even.addingProduct(taps[j], load(i &- j) + load(i &+ 1 &+ j))
                odd = odd.addingProduct(taps[j &+ 1], load(i &- j &- 1) + load(i &+ 2 &+ j))
                even2 = even2.addingProduct(taps[j], load(i2 &- j) + load(i2 &+ 1 &+ j))
                odd2 = odd2.addingProduct(taps[j &+ 1], load(i2 &- j &- 1) + load(i2 &+ 2 &+ j))
                j &+= 2
            }
            if j < pairs {
                even = even.addingProduct(taps[j], load(i &- j) + load(i &+ 1 &+ j))
                even2 = even2.addingProduct(taps[j], load(i2 &- j) + load(i2 &+ 1 &+ j))
            }
            UnsafeMutableRawPointer(m + k).storeBytes(of: even + odd, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(m + (k &+ 8)).storeBytes(of: even2 + odd2, as: SIMD8<Float>.self)
            k &+= 16
        }
        while k &+ 8 <= count {
            let i = first &+ k
            var even = taps[0] * (load(i) + load(i &+ 1))
            var odd = taps[1] * (load(i &- 1) + load(i &+ 2))
            var j = 2
            while j &+ 1 < pairs {
                even = even.addingProduct(taps[j], load(i &- j) + load(i &+ 1 &+ j))
                odd = odd.addingProduct(taps[j &+ 1], load(i &- j &- 1) + load(i &+ 2 &+ j))
                j &+= 2
            }
            if j < pairs { even = even.addingProduct(taps[j], load(i &- j) + load(i &+ 1 &+ j)) }
            UnsafeMutableRawPointer(m + k).storeBytes(of: even + odd, as: SIMD8<Float>.self)
            k &+= 8
        }
        while k < count {
            m[k] = midpoint(x, first &+ k, taps: taps, pairs: pairs)
            k &+= 1
        }
    }

    /// One midpoint as `midpoints` computes it.
    @inline(__always)
    public static func midpoint(_ x: UnsafePointer<Float>, _ i: Int, taps: UnsafePointer<Float>, pairs: Int) -> Float {
        var even = taps[0] * (x[i] + x[i &+ 1])
        var odd = taps[1] * (x[i &- 1] + x[i &+ 2])
        var j = 2
        while j &+ 1 < pairs {
            even = even.addingProduct(taps[j], x[i &- j] + x[i &+ 1 &+ j])
            odd = odd.addingProduct(taps[j &+ 1], x[i &- j &- 1] + x[i &+ 2 &+ j])
            j &+= 2
        }
        if j < pairs { even = even.addingProduct(taps[j], x[i &- j] + x[i &+ 1 &+ j]) }
        return even + odd
    }
}

extension HalfBandAVX2 {
    /// Stages 2 and 3 of the accurate interpolator over a block of `n` samples from `a`, eight
    /// samples at a time: the same arithmetic as `OversamplingInterpolator.interpolate`'s
    /// four-at-a-time loops (no fused multiply-add, so the same bits), the same scratch layout
    /// (m1 index k holds sample a − 4 + k; qa and qb a − 2 + k), and each group of four samples'
    /// largest grid magnitude in `groupMax`. Returns the block's largest grid magnitude.
    public static func laterStages(
        _ x: UnsafePointer<Float>, block a: Int, count n: Int, m1: UnsafePointer<Float>, qa: UnsafeMutablePointer<Float>,
        qb: UnsafeMutablePointer<Float>, groupMax: UnsafeMutablePointer<Float>, stage2 c: (Float, Float, Float, Float), stage3 d: (Float, Float)
    ) -> Float {
        @inline(__always)
        func load(_ pointer: UnsafePointer<Float>, _ index: Int) -> SIMD8<Float> {
            UnsafeRawPointer(pointer + index).loadUnaligned(as: SIMD8<Float>.self)
        }
        @inline(__always)
        func store(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>, _ index: Int) {
            UnsafeMutableRawPointer(pointer + index).storeBytes(of: value, as: SIMD8<Float>.self)
        }
        let (c0, c1, c2, c3) = c
        // Stage 2: qa and qb for samples a − 2 … a + n + 1 (m1 index = k + 2), eight at a time.
        var k = 0
        while k < n + 4 {
            let i = a - 2 + k, m = k + 2
            let x0 = load(x, i), xm1 = load(x, i - 1), xp1 = load(x, i + 1), xp2 = load(x, i + 2)
            let mm2 = load(m1, m - 2), mm1 = load(m1, m - 1), m0 = load(m1, m), mp1 = load(m1, m + 1), mp2 = load(m1, m + 2)
            store(c0 * (x0 + m0) + c1 * (mm1 + xp1) + c2 * (xm1 + mp1) + c3 * (mm2 + xp2), qa, k)
            store(c0 * (m0 + xp1) + c1 * (x0 + mp1) + c2 * (mm1 + xp2) + c3 * (xm1 + mp2), qb, k)
            k &+= 8
        }
        // Stage 3: the odd phases for samples a … a + n − 1 (qa/qb index = k + 1, m1 = k + 3),
        // folded into each group's largest and smallest value; magnitudes once per eight.
        let (d0, d1) = d
        let lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        var largest = SIMD8<Float>(repeating: 0)
        var group = 0
        k = 1
        while k < n + 1 {
            let x0 = load(x, a - 1 + k), xp1 = load(x, a + k), m0 = load(m1, k + 3)
            let qa0 = load(qa, k + 1), qap1 = load(qa, k + 2), qb0 = load(qb, k + 1), qbm1 = load(qb, k)
            var high = x0, low = x0
            @inline(__always)
            func include(_ value: SIMD8<Float>) {
                high.replace(with: value, where: value .> high)
                low.replace(with: value, where: value .< low)
            }
            include(d0 * (x0 + qa0) + d1 * (qbm1 + m0))
            include(qa0)
            include(d0 * (qa0 + m0) + d1 * (x0 + qb0))
            include(m0)
            include(d0 * (m0 + qb0) + d1 * (qa0 + xp1))
            include(qb0)
            include(d0 * (qb0 + xp1) + d1 * (m0 + qap1))
            var groupLargest = high
            groupLargest.replace(with: -low, where: -low .> high)
            // Lanes past the block's end do not count.
            if k + 8 > n + 1 { groupLargest.replace(with: 0, where: lanes .>= SIMD8<Int32>(repeating: Int32(n + 1 - k))) }
            largest.replace(with: groupLargest, where: groupLargest .> largest)
            let halves = (groupLargest.lowHalf, groupLargest.highHalf)
            groupMax[group] = max(max(halves.0[0], halves.0[1]), max(halves.0[2], halves.0[3]))
            groupMax[group + 1] = max(max(halves.1[0], halves.1[1]), max(halves.1[2], halves.1[3]))
            group &+= 2
            k &+= 8
        }
        return largest.largestLane
    }
}
