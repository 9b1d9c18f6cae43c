/// The shape of a spectrum in four numbers. DC (bin 0) is left out of all of them.
public struct SpectralSummary: Sendable, Equatable {
    /// Power-weighted mean frequency, Hz.
    public var centroid: Double
    /// The frequency below which 85 % of the power lies, Hz.
    public var rolloff: Double
    /// Geometric over arithmetic mean of the power: 1 for white noise, near 0 for tones.
    public var flatness: Double
    /// The highest frequency whose level is within 60 dB of the strongest bin, Hz: a lossy file
    /// re-encoded as lossless shows its encoder's cut-off here (e.g. 16 kHz).
    public var bandwidth: Double

    public static let rolloffFraction = 0.85
    public static let bandwidthRange = 60.0

    /// The summary of `meanSquare` (bins of `binWidth` Hz); nil for silence.
    public init?(meanSquare: [Double], binWidth: Double) {
        let bins = 1..<meanSquare.count
        let total = bins.reduce(0) { $0 + meanSquare[$1] }
        guard total > 0, total.isFinite else { return nil }
        centroid = bins.reduce(0) { $0 + Double($1) * binWidth * meanSquare[$1] } / total
        var cumulative = 0.0
        rolloff = 0
        for bin in bins {
            cumulative += meanSquare[bin]
            if cumulative >= Self.rolloffFraction * total {
                rolloff = Double(bin) * binWidth
                break
            }
        }
        // The geometric mean in logs; a bin of exactly zero makes it 0.
        var logSum = 0.0
        var hasZero = false
        for bin in bins {
            if meanSquare[bin] > 0 { logSum += log(meanSquare[bin]) } else { hasZero = true }
        }
        flatness = hasZero ? 0 : exp(logSum / Double(bins.count)) / (total / Double(bins.count))
        let strongest = bins.map { meanSquare[$0] }.max() ?? 0
        let threshold = strongest * pow(10, -Self.bandwidthRange / 10)
        let highest = bins.last { meanSquare[$0] >= threshold } ?? 0
        bandwidth = Double(highest) * binWidth
    }
}
