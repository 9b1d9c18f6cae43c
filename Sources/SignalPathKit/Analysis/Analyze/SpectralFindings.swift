/// What the averaged spectrum shows.
public struct SpectralFindings: Sendable {
    /// The strongest tones, strongest first.
    public var tones: [SpectralPeak]
    /// Present when one steady tone dominates (`Distortion`'s rule).
    public var distortion: Distortion?
    public var summary: SpectralSummary?

    public static let none = SpectralFindings()

    private init() {
        tones = []
    }

    /// Findings for channel `channel` of `spectrum`; `strongestBins` as `Distortion` takes them.
    init(spectrum: PowerSpectrum, channel: Int, meanSquare: [Double], strongestBins: [Double], settings: AnalysisSettings) {
        tones = spectrum.peaks(
            count: max(settings.toneCount, 1), channel: 0, meanSquare: [meanSquare],
            frequencies: Distortion.band(sampleRate: spectrum.sampleRate).lowerBound...Double(spectrum.sampleRate) / 2, a4: settings.a4,
            prominence: AnalysisSettings.toneProminence
        )
        .map { peak in
            var peak = peak
            peak.channel = channel
            return peak
        }
        distortion = tones.first.flatMap {
            Distortion(
                meanSquare: meanSquare, strongestBins: strongestBins, spectrum: spectrum, peak: $0, highestHarmonic: settings.highestHarmonic)
        }
        tones = Array(tones.prefix(settings.toneCount))
        summary = SpectralSummary(meanSquare: meanSquare, binWidth: spectrum.binWidth)
    }
}
