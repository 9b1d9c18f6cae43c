/// Harmonic distortion and noise of a signal that is one steady tone, measured in a band.
///
/// Powers are sums of mean-square bins: the fundamental and each harmonic own the bins within the
/// window's main lobe (plus one) around them; everything else in the band is noise. All figures are
/// ratios, so the window's noise bandwidth cancels.
///
/// A THD meter needs a dominant, stationary tone, so the figures are given only when the tone
/// carries at least `minimumShare` of the band's power (THD+N ≤ 50 %) and is the strongest bin of
/// the segments holding `minimumStability` of the power, within one resolution bin, over at least
/// `minimumSegments` segments. Speech (a voice's pitch moves by more than a bin, and its fundamental
/// carries at most ~60 % of the power, measured on espeak-ng words), music and noise fail this; a tone
/// with 30 % THD at 20 dB SNR carries 91 %. A flatness test of what lies between the harmonics was
/// rejected: it would also refuse a tone in hum or pink noise, which a THD meter does measure.
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

    /// The least share of the band's power the fundamental carries.
    public static let minimumShare = 0.8
    /// The least share of the power in segments whose strongest bin is the fundamental's.
    public static let minimumStability = 0.9
    /// Segments needed to judge that the tone is steady.
    public static let minimumSegments = 3

    /// The rule, for the conventions of a result.
    public static var rule: String {
        "reported when one steady tone dominates: the strongest tone carries ≥ \(Int(minimumShare * 100)) % of the power in the band "
            + "(THD+N ≤ 50 %), and in segments holding ≥ \(Int(minimumStability * 100)) % of the power it is the strongest bin "
            + "(within one resolution bin), over ≥ \(minimumSegments) segments; otherwise null (speech, music, noise)"
    }

    /// The band every measurement uses: 20 Hz to 20 kHz, or to Nyquist when that is lower.
    public static func band(sampleRate: Int) -> ClosedRange<Double> {
        let nyquist = Double(sampleRate) / 2
        return min(20, nyquist)...min(20_000, nyquist)  // (a rate under 40 Hz has no audio band: the band is what there is)
    }

    /// The FFT bins inside the band, or nil when no bin centre falls in it (a sample rate so high
    /// that the bins are wider than the band).
    public static func bins(sampleRate: Int, fftSize: Int) -> ClosedRange<Int>? {
        let band = band(sampleRate: sampleRate)
        let width = Double(sampleRate) / Double(fftSize)
        let first = Int((band.lowerBound / width).rounded(.up))
        let last = min(fftSize / 2, Int((band.upperBound / width).rounded(.down)))
        return first <= last ? first...last : nil
    }

    /// Measures `meanSquare` (one channel's bins of `spectrum`) around `peak`, with harmonics up to
    /// order `highestHarmonic`. `strongestBins[k]` is the in-band power of the segments whose
    /// strongest in-band bin was k. Nil unless one steady tone dominates (see the type's rule).
    public init?(meanSquare: [Double], strongestBins: [Double], spectrum: PowerSpectrum, peak: SpectralPeak, highestHarmonic: Int) {
        let band = Distortion.band(sampleRate: spectrum.sampleRate)
        guard spectrum.segments >= Self.minimumSegments, band.contains(peak.frequency),
            let binsInBand = Distortion.bins(sampleRate: spectrum.sampleRate, fftSize: spectrum.parameters.fftSize)
        else { return nil }
        let width = spectrum.binWidth
        let parameters = spectrum.parameters
        let lobe = parameters.window.mainLobeHalfWidth * parameters.fftSize / parameters.windowSize + 1
        func power(around centre: Int) -> Double {
            let low = max(binsInBand.lowerBound, centre - lobe), high = min(binsInBand.upperBound, centre + lobe)
            return low <= high ? (low...high).reduce(0) { $0 + meanSquare[$1] } : 0
        }
        let total = binsInBand.reduce(0) { $0 + meanSquare[$1] }
        let fundamentalPower = power(around: peak.bin)
        guard fundamentalPower > 0, fundamentalPower >= Self.minimumShare * total else { return nil }
        // Steady: the segments whose strongest bin lay within one resolution bin (fs / window size)
        // of the fundamental's.
        let allSegments = strongestBins.reduce(0, +)
        guard allSegments > 0, strongestBins.indices.contains(peak.bin) else { return nil }
        let resolution = (parameters.fftSize + parameters.windowSize - 1) / parameters.windowSize
        let steady = max(0, peak.bin - resolution)...min(strongestBins.count - 1, peak.bin + resolution)
        guard steady.reduce(0, { $0 + strongestBins[$1] }) >= Self.minimumStability * allSegments else { return nil }
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
