/// The arithmetic of one `LevelStatistics` block, eight samples at a time: the one source of both
/// its builds. Compiled twice, as an internal type of each module: here, for x86-64-v3, inside
/// `LevelBlockAVX2.summarize` (a SIMD8<Float> in one 256-bit register), and in SignalPathKit
/// (`Analysis/Levels/LevelBlock.swift` is a link to it) at the x86-64 baseline, where
/// `LevelStatistics.Pass` runs it on processors without AVX2 (two 128-bit halves).
///
/// Four lanes are kept for the extremes (so that of −0 and +0 the same one is found on both
/// builds) and the Double sums, sample i in lane i mod 4 (the low half of each eight before the
/// high half; no fused multiply-add); sign changes are counts. So the same bits
/// (docs/DECISIONS.md#avx2-kernels).
enum LevelBlock {
    /// Over `count` samples at `block` (a multiple of 8, ≥ 8): the extremes, the per-lane sums and
    /// sums of squares, and the sign changes between its samples after the first four (the first
    /// four are the caller's, against the sample before the block).
    @inline(__always)
    static func summarize(_ block: UnsafePointer<Float>, count: Int) -> (
        lowest: Float, highest: Float, sums: SIMD4<Double>, squares: SIMD4<Double>, changes: Int
    ) {
        func load(_ index: Int) -> SIMD8<Float> { UnsafeRawPointer(block + index).loadUnaligned(as: SIMD8<Float>.self) }
        func widened(_ value: SIMD4<Float>) -> SIMD4<Double> { SIMD4<Double>(Double(value[0]), Double(value[1]), Double(value[2]), Double(value[3])) }
        var low = SIMD4<Float>(repeating: .infinity), high = SIMD4<Float>(repeating: -.infinity)
        var sums = SIMD4<Double>(repeating: 0), squares = SIMD4<Double>(repeating: 0)
        var changes = SIMD8<Int32>(repeating: 0)
        // Samples 4...7 against 3...6.
        let head = UnsafeRawPointer(block + 4).loadUnaligned(as: SIMD4<Float>.self)
        let headBefore = UnsafeRawPointer(block + 3).loadUnaligned(as: SIMD4<Float>.self)
        var headChanges = SIMD4<Int32>(repeating: 0).replacing(with: 1, where: (head .< 0) .^ (headBefore .< 0))
        var offset = 0
        while offset < count {
            let value = load(offset)
            low.replace(with: value.lowHalf, where: value.lowHalf .< low)
            high.replace(with: value.lowHalf, where: value.lowHalf .> high)
            low.replace(with: value.highHalf, where: value.highHalf .< low)
            high.replace(with: value.highHalf, where: value.highHalf .> high)
            let first = widened(value.lowHalf), second = widened(value.highHalf)
            sums += first
            squares += first * first
            sums += second
            squares += second * second
            if offset > 0 {
                let before = load(offset &- 1)
                changes &+= SIMD8<Int32>(repeating: 0).replacing(with: 1, where: (value .< 0) .^ (before .< 0))
            }
            offset &+= 8
        }
        headChanges &+= changes.lowHalf &+ changes.highHalf
        // The reductions spelled out (the generic ones are not specialised).
        let lowest = Swift.min(Swift.min(low[0], low[1]), Swift.min(low[2], low[3]))
        let highest = Swift.max(Swift.max(high[0], high[1]), Swift.max(high[2], high[3]))
        return (lowest, highest, sums, squares, Int(headChanges.wrappedSum()))
    }
}
