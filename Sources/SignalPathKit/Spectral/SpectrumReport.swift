/// How a computed spectrum is presented: scale, weighting, smoothing or bands, frequency limits,
/// peaks.
public struct SpectrumPresentation: Sendable, Equatable {
    public var scale: SpectrumScale = .dbfs
    public var weighting: FrequencyWeighting = .z
    /// 1/n-octave smoothing (n in 1…48), or nil.
    public var smoothing: Int?
    /// 1/n-octave band levels (n in 1, 2, 3, 6, 12, 24) instead of bins, or nil.
    public var bands: Int?
    /// Only bins (or bands) whose frequency lies in this range.
    public var frequencies: ClosedRange<Double>?
    /// How many peaks to find per channel.
    public var peakCount = 0
    /// A table lists the peaks instead of the rows (`--peaks N` asked for them).
    public var tableOfPeaks = false
    /// The reference pitch for note names, in Hz.
    public var a4 = 440.0

    public init() {}
}

/// A spectrum ready to print: rows of frequency and per-channel values in the chosen scale, and
/// the strongest peaks.
public struct SpectrumReport: Sendable {
    public struct Row: Sendable, Equatable {
        /// Bin frequency, or the band's exact midband frequency.
        public var frequency: Double
        /// For bands: the nominal frequency and the edges.
        public var band: OctaveBand?
        /// Per channel, in the presentation's scale; −∞ dB where there is no power.
        public var values: [Double]
    }

    public let spectrum: PowerSpectrum
    public let presentation: SpectrumPresentation
    public let rows: [Row]
    /// Per channel, strongest first.
    public let peaks: [[SpectralPeak]]

    /// Each tone once, for the pictures: where channels share a peak (within the window's main
    /// lobe of each other) only the strongest is kept, so no peak is marked and named twice.
    public var peaksNamedOnce: [SpectralPeak] {
        let lobe = Double(spectrum.parameters.window.mainLobeHalfWidth) * Double(spectrum.sampleRate) / Double(spectrum.parameters.windowSize)
        var kept: [SpectralPeak] = []
        for peak in peaks.joined().sorted(by: { $0.level > $1.level }) where !kept.contains(where: { abs($0.frequency - peak.frequency) <= lobe }) {
            kept.append(peak)
        }
        return kept
    }

    public init(spectrum: PowerSpectrum, presentation: SpectrumPresentation) {
        self.spectrum = spectrum
        self.presentation = presentation
        let frequencies = spectrum.frequencies
        let weighted = presentation.weighting.apply(to: spectrum.meanSquare(), frequencies: frequencies)
        let limits = presentation.frequencies
        peaks = weighted.indices.map { channel in
            spectrum.peaks(
                count: presentation.peakCount, channel: channel, meanSquare: weighted,
                frequencies: limits, a4: presentation.a4)
        }
        if let fraction = presentation.bands {
            let bands = OctaveBand.bands(fraction: fraction, upTo: Double(spectrum.sampleRate) / 2)
                .filter { limits?.contains($0.centre) ?? true }
            // Band mean squares, then the scale: dB re full-scale sine for dbfs, re FS² for power,
            // the mean density over the band for psd.
            rows = bands.map { band in
                let values = weighted.map { channel -> Double in
                    let meanSquare = band.meanSquare(of: channel, binWidth: spectrum.binWidth, enbwBins: spectrum.enbwBins)
                    return SpectrumReport.bandValue(meanSquare, band: band, scale: presentation.scale)
                }
                return Row(frequency: band.centre, band: band, values: values)
            }
        } else {
            let smoothed =
                presentation.smoothing.map { fraction in
                    weighted.map { OctaveSmoothing.smooth($0, binWidth: spectrum.binWidth, fraction: fraction) }
                } ?? weighted
            let values = spectrum.values(fromMeanSquare: smoothed, in: presentation.scale)
            rows = frequencies.indices.compactMap { bin in
                if let limits, !limits.contains(frequencies[bin]) { return nil }
                return Row(frequency: frequencies[bin], band: nil, values: values.map { $0[bin] })
            }
        }
    }

    private static func bandValue(_ meanSquare: Double, band: OctaveBand, scale: SpectrumScale) -> Double {
        switch scale {
        case .dbfs: return 10 * log10(2 * meanSquare)
        case .power: return 10 * log10(meanSquare)
        case .psd: return 10 * log10(meanSquare / (band.upper - band.lower))
        case .linear: return (2 * meanSquare).squareRoot()
        }
    }
}
