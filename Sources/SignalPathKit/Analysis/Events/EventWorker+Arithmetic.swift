// The per-block arithmetic of `events`' scan over a chunk's rows, on plain pointers.

extension EventWorker {
    /// Σ x² in Double, four partial sums (lane i mod 4) added at the end: a single running sum
    /// waited on each addition (docs/DECISIONS.md#events-loops).
    static func sumOfSquares(_ samples: UnsafePointer<Float>, count: Int) -> Double {
        var sums = SIMD4<Double>()
        var index = 0
        while index &+ 4 <= count {
            let value = SIMD4<Double>(UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD4<Float>.self))
            sums += value * value
            index &+= 4
        }
        var sum = (sums[0] + sums[1]) + (sums[2] + sums[3])
        while index < count {
            sum += Double(samples[index]) * Double(samples[index])
            index &+= 1
        }
        return sum
    }

    /// Σ x in Double, four partial sums as `sumOfSquares`.
    static func sum(_ samples: UnsafePointer<Float>, count: Int) -> Double {
        var sums = SIMD4<Double>()
        var index = 0
        while index &+ 4 <= count {
            sums += SIMD4<Double>(UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD4<Float>.self))
            index &+= 4
        }
        var sum = (sums[0] + sums[1]) + (sums[2] + sums[3])
        while index < count {
            sum += Double(samples[index])
            index &+= 1
        }
        return sum
    }
}
