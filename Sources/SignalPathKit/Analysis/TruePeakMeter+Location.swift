/// Where the true peak lies: `peak(_:range:above:)`'s pass, which also remembers the last block
/// that raised the peak, then one scalar look at that block alone (so finding the place costs
/// one block's interpolation, not a second pass).
extension TruePeakMeter {
    /// The filter's delay in input samples: its taps are symmetric about 23.5 of the 4× rate, so
    /// the output of phase p computed at sample i lies at i − 5.875 + p/4.
    static let delay = 23.5 / 4

    /// As `peak(_:range:above:)`, with the position of the largest interpolated value in samples
    /// of `samples` (fractional: the outputs lie between input samples); nil when no output
    /// exceeds `floor`. Of equal values, the earliest.
    public func locatePeak(_ samples: UnsafeBufferPointer<Float>, range: Range<Int>, above floor: Float) -> (peak: Float, position: Double?) {
        precondition(range.lowerBound >= Self.taps - 1 && range.upperBound <= samples.count)
        guard let base = samples.baseAddress else { return (floor, nil) }
        var peak = floor
        var peakBlock: Range<Int>?
        var blockStart = range.lowerBound
        while blockStart < range.upperBound {
            let blockEnd = min(blockStart + Self.blockSize, range.upperBound)
            if Self.largestMagnitude(base, (blockStart - Self.taps + 1)..<blockEnd) * Self.gainBound > peak {
                var blockPeak = peak
                for phase in 0..<4 { blockPeak = max(blockPeak, Self.interpolate(base, blockStart..<blockEnd, phase: phase)) }
                if blockPeak > peak {
                    peak = blockPeak
                    peakBlock = blockStart..<blockEnd
                }
            }
            blockStart = blockEnd
        }
        guard let block = peakBlock else { return (peak, nil) }
        return (peak, Self.position(of: peak, in: base, block))
    }

    /// The earliest output of `block` whose magnitude is `value` (or, should rounding differ from
    /// the vector path, the largest), summed in the same order as `interpolate`.
    private static func position(of value: Float, in samples: UnsafePointer<Float>, _ block: Range<Int>) -> Double {
        var best: (magnitude: Float, position: Double) = (-1, Double(block.lowerBound))
        for index in block {
            for phase in 0..<4 {
                let c = phases[phase]
                var sum = c[0] * samples[index]
                for tap in 1..<taps { sum += c[tap] * samples[index - tap] }
                let position = Double(index) - delay + Double(phase) / 4
                if abs(sum) == value { return position }
                if abs(sum) > best.magnitude { best = (abs(sum), position) }
            }
        }
        return best.position
    }
}
