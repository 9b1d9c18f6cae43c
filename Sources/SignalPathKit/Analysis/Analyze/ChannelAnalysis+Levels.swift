/// The readings of a channel's level statistics: what `analyze` reports from `LevelStatistics`
/// alone. A new reading of the statistics is a property here and a row of
/// `SignalAnalysis.channelMetrics`.
extension ChannelAnalysis {
    /// Finite samples counted (at least 1, so that silence divides to 0, not NaN).
    private var counted: Double { Double(max(1, statistics.finiteSamples)) }
    private var meanSquareLevel: Double { statistics.sumOfSquares / counted }

    /// Sample peak, dBFS, and the time it first occurs (seconds from the start of the file).
    public var peak: Double { decibels(amplitude: Double(statistics.peak)) }
    public var peakTime: Double? { statistics.peakFrame.map { Double($0) / sampleRate } }
    /// RMS in dBFS by the analysis' RMS reference.
    public var rms: Double { decibels(amplitude: meanSquareLevel.squareRoot()) + rmsReferenceOffset }
    /// Sample peak over RMS (as a ratio of amplitudes), dB.
    public var crest: Double { decibels(amplitude: Double(statistics.peak) / meanSquareLevel.squareRoot()) }
    /// Mean sample value (full scale = 1).
    public var dcOffset: Double { statistics.sum / counted }
    public var minimum: Double { statistics.finiteSamples > 0 ? Double(statistics.minimum) : 0 }
    public var maximum: Double { statistics.finiteSamples > 0 ? Double(statistics.maximum) : 0 }
    public var clippedSamples: Int64 { statistics.clippedSamples }
    public var clipEvents: Int64 { statistics.clipEvents }
    /// Sign changes per second.
    public var zeroCrossingRate: Double {
        frames.count > 1 ? Double(statistics.zeroCrossings) / (Double(frames.count) / sampleRate) : 0
    }
    /// Seconds before the first and after the last sample at or above the silence threshold.
    public var leadingSilence: Double {
        Double((statistics.firstAudibleFrame.map { $0 - frames.lowerBound }) ?? Int64(frames.count)) / sampleRate
    }
    public var trailingSilence: Double {
        Double(statistics.lastAudibleFrame.map { frames.upperBound - 1 - $0 } ?? Int64(frames.count)) / sampleRate
    }
}
