/// The first half-band stage of the `accurate` true-peak interpolator (`OversamplingInterpolator`),
/// eight midpoints at a time with fused multiply-adds, in the module compiled for x86-64-v3 (AVX2
/// and FMA); the interpolator calls it only where the processor has them (`ProcessorFeatures`),
/// its four-at-a-time loop otherwise. The stage is most of the interpolator's work (20 of its 36
/// multiplications per input sample). As in `TruePeakAVX2`, the even and odd pairs are summed in
/// two chains of fused multiply-adds and then added; `TruePeakTests` holds both paths to scalar
/// models of their arithmetic.
public enum HalfBandAVX2 {
    /// m[k] = Σⱼ taps[j]·(x[i − j] + x[i + 1 + j]) for i = first + k, k in 0..<count: the even j in
    /// one chain from j = 0, the odd in another from j = 1 (`pairs` ≥ 2), then their sum.
    public static func midpoints(
        _ x: UnsafePointer<Float>, first: Int, count: Int, taps: UnsafePointer<Float>, pairs: Int, into m: UnsafeMutablePointer<Float>
    ) {
        func load(_ index: Int) -> SIMD8<Float> { UnsafeRawPointer(x + index).loadUnaligned(as: SIMD8<Float>.self) }
        var k = 0
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
