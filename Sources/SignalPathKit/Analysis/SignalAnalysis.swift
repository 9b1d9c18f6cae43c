/// The results of `SignalAnalyzer` for one file: per channel, and overall.
public struct SignalAnalysis: Sendable {
    public var path: String
    /// The stream measured, when reports name it (`AudioFile.namedStream`).
    public var stream: AudioStream?
    public var format: AudioFormat
    /// The frames analysed (absolute).
    public var frames: Range<Int64>
    public var settings: AnalysisSettings
    /// The spectrum parameters used (the window shrinks for a range shorter than it).
    public var spectrumParameters: SpectrumParameters
    public var channels: [ChannelAnalysis]
    public var loudness: Loudness
    /// The stereo image of the pair `StereoImage.pair` picks; nil without one.
    public var stereo: StereoImage?
    /// The averaged spectrum per channel; nil when the range is too short for one segment.
    public var spectrum: PowerSpectrum?
    /// Tones, distortion and spectral summary of the channels' mean power.
    public var overall: SpectralFindings
    /// Whether the file is what it claims (lossy or upsampled origin, padded bits); nil without a
    /// spectrum segment.
    public var authenticity: Authenticity?
    /// Leading and trailing time in which every channel is silent, and the fraction of 100 ms
    /// blocks in which every channel is.
    public var leadingSilence: Double
    public var trailingSilence: Double
    public var silentFraction: Double?

    public var sampleRate: Int { format.sampleRate }
    public var duration: Double { Double(frames.count) / Double(format.sampleRate) }
    /// The largest true peak over channels (dBTP): the programme's.
    public var truePeak: Double { channels.map(\.truePeak).max() ?? -.infinity }
    public var samplePeak: Double { channels.map(\.peak).max() ?? -.infinity }
    /// The time of the programme's true peak (the earliest channel's, of equal peaks).
    public var truePeakTime: Double? { channels.max { $0.truePeak < $1.truePeak }?.truePeakTime }
}

/// One channel's measurements. Levels in dB are −∞ for digital silence (null in JSON).
///
/// The level statistics' readings are computed from `statistics` (`ChannelAnalysis+Levels.swift`);
/// the other measures' results are set by the combiner's steps (`AnalysisCombiner.finish`).
public struct ChannelAnalysis: Sendable {
    /// 1-based.
    public var index: Int
    public var name: String
    public var statistics: LevelStatistics
    /// What the statistics are read against: the frames analysed (absolute), the sample rate, and
    /// the RMS reference's offset in dB.
    var frames: Range<Int64>
    var sampleRate: Double
    var rmsReferenceOffset: Double
    /// True peak, dBTP (BS.1770-4, 4× oversampling; never below the sample peak).
    public var truePeak: Double = -.infinity
    /// Where the true peak lies, seconds from the start of the file (between samples when an
    /// interpolated value is the peak); nil for digital silence.
    public var truePeakTime: Double?
    /// Fraction of whole 100 ms blocks whose RMS is below the silence threshold.
    public var silentFraction: Double?
    /// The RMS (dBFS, by the RMS reference) of the quietest 100 ms blocks: their 10th percentile,
    /// digital silence left out. Nil without a non-silent whole block.
    public var noiseFloor: Double?
    /// Sample peak over the noise floor's RMS, dB.
    public var dynamicRange: Double?
    /// Bits in use: 1 + the position of the lowest set bit below full scale over all samples
    /// (16 for 16-bit audio, also inside a 24-bit file); nil for silence, lossy codecs, and
    /// floating-point data finer than 32 bits.
    public var effectiveBits: Int?
    /// NaN or infinite samples (floating-point files), analysed as 0.
    public var nonFiniteSamples: Int64 = 0
    public var spectral: SpectralFindings = .none

    init(index: Int, name: String, statistics: LevelStatistics, frames: Range<Int64>, sampleRate: Double, rmsReferenceOffset: Double) {
        self.index = index
        self.name = name
        self.statistics = statistics
        self.frames = frames
        self.sampleRate = sampleRate
        self.rmsReferenceOffset = rmsReferenceOffset
    }
}

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
