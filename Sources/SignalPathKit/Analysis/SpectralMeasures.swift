/// Harmonic distortion and noise of a spectrum dominated by one tone, measured in a band.
///
/// Powers are sums of mean-square bins: the fundamental and each harmonic own the bins within the
/// window's main lobe (plus one) around them; everything else in the band is noise. All figures are
/// ratios, so the window's noise bandwidth cancels.
public struct Distortion: Sendable, Equatable {
    public var fundamental: Double
    public var fundamentalLevel: Double
    /// √(Σ harmonic power / fundamental power), as a fraction (0.01 = 1 %).
    public var thd: Double
    /// √((band power − fundamental power) / fundamental power).
    public var thdPlusNoise: Double
    /// Fundamental over noise (band minus fundamental and harmonics), dB.
    public var snr: Double
    /// Fundamental over noise and distortion, dB.
    public var sinad: Double
    /// (SINAD − 1.76) / 6.02.
    public var enob: Double
    /// Harmonics counted (2nd up to this order, those inside the band).
    public var harmonicsCounted: Int
    public var band: ClosedRange<Double>

    /// The band every measurement uses: 20 Hz to 20 kHz, or to Nyquist when that is lower.
    public static func band(sampleRate: Int) -> ClosedRange<Double> {
        let nyquist = Double(sampleRate) / 2
        return min(20, nyquist)...min(20_000, nyquist)  // (a rate under 40 Hz has no audio band: the band is what there is)
    }

    /// Measures `meanSquare` (one channel's bins of `spectrum`) around `peak`, with harmonics up to
    /// order `highestHarmonic`. Nil unless the tone carries more than half the power in the band.
    public init?(meanSquare: [Double], spectrum: PowerSpectrum, peak: SpectralPeak, highestHarmonic: Int) {
        let band = Distortion.band(sampleRate: spectrum.sampleRate)
        let width = spectrum.binWidth
        let firstBin = Int((band.lowerBound / width).rounded(.up)), lastBin = min(spectrum.binCount - 1, Int((band.upperBound / width).rounded(.down)))
        // Bins wider than the band (a sample rate of megahertz) leave no bin inside it.
        guard firstBin <= lastBin, band.contains(peak.frequency) else { return nil }
        let binsInBand = firstBin...lastBin
        let lobe = spectrum.parameters.window.mainLobeHalfWidth * spectrum.parameters.fftSize / spectrum.parameters.windowSize + 1
        func power(around centre: Int) -> Double {
            let bins = max(binsInBand.lowerBound, centre - lobe)...min(binsInBand.upperBound, centre + lobe)
            return bins.isEmpty ? 0 : bins.reduce(0) { $0 + meanSquare[$1] }
        }
        let total = binsInBand.reduce(0) { $0 + meanSquare[$1] }
        let fundamentalPower = power(around: peak.bin)
        guard fundamentalPower > total / 2, fundamentalPower > 0 else { return nil }
        var harmonicPower = 0.0
        var counted = 0
        for order in 2...max(2, highestHarmonic) {
            let frequency = Double(order) * peak.frequency
            guard frequency <= band.upperBound else { break }
            let centre = Int((frequency / width).rounded())
            // A harmonic whose lobe would reach into the fundamental's is not separable at this resolution.
            guard centre - lobe > peak.bin + lobe else { continue }
            harmonicPower += power(around: centre)
            counted += 1
        }
        let noiseAndDistortion = max(0, total - fundamentalPower)
        let noise = max(0, noiseAndDistortion - harmonicPower)
        fundamental = peak.frequency
        fundamentalLevel = peak.level
        thd = (harmonicPower / fundamentalPower).squareRoot()
        thdPlusNoise = (noiseAndDistortion / fundamentalPower).squareRoot()
        snr = 10 * log10(fundamentalPower / noise)
        sinad = 10 * log10(fundamentalPower / noiseAndDistortion)
        enob = (sinad - 1.76) / 6.02
        harmonicsCounted = counted
        self.band = band
    }
}

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
