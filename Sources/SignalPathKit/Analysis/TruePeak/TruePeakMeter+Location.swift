import SignalPathAVX2

/// Where the true peak lies: `peak(_:range:above:)` block by block, remembering the last block
/// that raised the peak, then one look at that block alone (so finding the place costs one
/// block's interpolation, not a second pass). Either mode gives the same peak as `peak`.
extension TruePeakMeter {
    /// BS.1770's outputs lie between input samples: its taps are symmetric about 23.5 of the 4×
    /// rate, so the output of phase p computed at sample i lies at i − 5.875 + p/4.
    static let phaseDelay = 23.5 / 4

    /// As `peak(_:range:above:)`, with the position of the largest interpolated value in samples
    /// of `samples` (fractional for `.bs1770`, whose outputs lie between input samples; the first
    /// sample of the output's interval for `.accurate`); nil when no output exceeds `floor`. Of
    /// equal values, the earliest.
    public func locatePeak(_ samples: UnsafeBufferPointer<Float>, range: Range<Int>, above floor: Float) -> (peak: Float, position: Double?) {
        var peak = floor
        var peakBlock: Range<Int>?
        var blockStart = range.lowerBound
        while blockStart < range.upperBound {
            let blockEnd = min(blockStart + Self.blockSize, range.upperBound)
            let blockPeak = self.peak(samples, range: blockStart..<blockEnd, above: peak)
            if blockPeak > peak {
                peak = blockPeak
                peakBlock = blockStart..<blockEnd
            }
            blockStart = blockEnd
        }
        guard let block = peakBlock, let base = samples.baseAddress else { return (peak, nil) }
        if mode == .bs1770 { return (peak, Self.position(of: peak, in: base, block)) }
        // The accurate interpolator's outputs for one input sample's interval, one at a time.
        for index in block where self.peak(samples, range: index..<index + 1, above: 0) >= peak {
            return (peak, Double(index - delay))
        }
        return (peak, Double(block.lowerBound - delay))
    }

    /// The earliest BS.1770 output of `block` whose magnitude is `value` (or, should rounding
    /// differ from the kernels, the largest), each output summed as `interpolate` sums on this
    /// processor (`outputMagnitude`).
    private static func position(of value: Float, in samples: UnsafePointer<Float>, _ block: Range<Int>) -> Double {
        var best: (magnitude: Float, position: Double) = (-1, Double(block.lowerBound))
        for index in block {
            for phase in 0..<4 {
                let magnitude = outputMagnitude(samples, index, phase: phase, wide: wide)
                let position = Double(index) - phaseDelay + Double(phase) / 4
                if magnitude == value { return position }
                if magnitude > best.magnitude { best = (magnitude, position) }
            }
        }
        return best.position
    }
}
