/// The stereo pair's frame sums (`StereoImage.Sums.add`), eight frames at a time: the one source
/// of both its builds. Compiled twice, as an internal type of each module: here, for x86-64-v3,
/// inside `StereoSumsAVX2.accumulate` (a SIMD8<Float> in one 256-bit register), and in
/// SignalPathKit (`Analysis/Stereo/StereoSums.swift` is a link to it) at the x86-64 baseline,
/// where `Sums.add` runs it on processors without AVX2 (two 128-bit halves). No fused multiply-add:
/// the same bits (docs/DECISIONS.md#avx2-kernels).
enum StereoSums {
    /// The Double totals the blocks are added to: Σ L, Σ R, Σ L², Σ R², Σ L·R, Σ ((L + R) / 2)².
    typealias Totals = (left: Double, right: Double, leftSquares: Double, rightSquares: Double, products: Double, mono: Double)

    /// Sums whole eights of frames from `left` and `right` (`count` of each at most) in Float over
    /// blocks of 128 frames, frame i in lane i mod 8, and adds each block's lanes to `totals` in
    /// Double; raises `largest` to each lane's largest |L − R|. Stops after the last whole eight,
    /// or at a block whose squares overflow a Float: that block is not added (`overflowing` frames
    /// at `done`, for the caller to sum in Double), though `largest` has seen it.
    @inline(__always)
    static func accumulate(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, count: Int, totals: inout Totals, largest: inout SIMD8<Float>
    ) -> (done: Int, overflowing: Int) {
        var index = 0
        var widest = largest
        while index &+ 8 <= count {
            let blockEnd = index &+ Swift.min(128, (count &- index) & ~7)
            let blockStart = index
            var sumL = SIMD8<Float>(), sumR = SIMD8<Float>(), squaresL = SIMD8<Float>(), squaresR = SIMD8<Float>()
            var productSums = SIMD8<Float>(), mono = SIMD8<Float>()
            while index < blockEnd {
                let a = UnsafeRawPointer(left + index).loadUnaligned(as: SIMD8<Float>.self)
                let b = UnsafeRawPointer(right + index).loadUnaligned(as: SIMD8<Float>.self)
                let difference = a - b
                widest.replace(with: -difference, where: -difference .> widest)
                widest.replace(with: difference, where: difference .> widest)
                sumL += a
                sumR += b
                squaresL += a * a
                squaresR += b * b
                productSums += a * b
                let half = (a + b) * 0.5
                mono += half * half
                index &+= 8
            }
            let squareSums = (squaresL.laneSum, squaresR.laneSum, mono.laneSum)
            guard squareSums.0.isFinite && squareSums.1.isFinite && squareSums.2.isFinite else {
                largest = widest
                return (blockStart, index &- blockStart)
            }
            totals.left += sumL.laneSum
            totals.right += sumR.laneSum
            totals.leftSquares += squareSums.0
            totals.rightSquares += squareSums.1
            totals.products += productSums.laneSum
            totals.mono += squareSums.2
        }
        largest = widest
        return (index, 0)
    }
}

extension SIMD8 where Scalar == Float {
    /// The lanes' sum in Double, lane by lane in order (spelled out: the generic reduction is not
    /// specialised).
    @inline(__always)
    fileprivate var laneSum: Double {
        Double(self[0]) + Double(self[1]) + Double(self[2]) + Double(self[3]) + Double(self[4]) + Double(self[5]) + Double(self[6])
            + Double(self[7])
    }
}
