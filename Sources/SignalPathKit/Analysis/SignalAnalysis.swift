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
    /// The audio MD5 of the frames analysed (`AudioMD5`), when asked for and the format has one.
    public var audioMD5: String? = nil
    /// The MD5 the file carries (FLAC STREAMINFO, BWF `MD5 ` chunk), when the audio MD5 was asked for.
    public var embeddedMD5: EmbeddedMD5? = nil
    /// The Chromaprint fingerprint of the file's start, when asked for (nil for a stream).
    public var fingerprint: AudioFingerprint? = nil

    /// Whether the MD5 the file carries is the audio's: nil where there is nothing to compare (no
    /// embedded value, an unset one, no audio MD5, a range short of the whole file, or an 8-bit
    /// WAV, whose chunk covers unsigned bytes).
    public var embeddedMD5Matches: Bool? {
        guard let embedded = embeddedMD5?.value, let audioMD5, frames.lowerBound == 0, frames.upperBound == format.frames else { return nil }
        if embeddedMD5?.source == .bwfChunk, format.sampleFormat.bitDepth == 8 { return nil }
        return embedded == audioMD5
    }

    public var sampleRate: Int { format.sampleRate }
    public var duration: Double { Double(frames.count) / Double(format.sampleRate) }
    /// The largest true peak over channels (dBTP): the programme's.
    public var truePeak: Double { channels.map(\.truePeak).max() ?? -.infinity }
    public var samplePeak: Double { channels.map(\.peak).max() ?? -.infinity }
    /// The time of the programme's true peak (the earliest channel's, of equal peaks).
    public var truePeakTime: Double? { channels.max { $0.truePeak < $1.truePeak }?.truePeakTime }
}

/// One channel's measurements. Levels in dB are −∞ for digital silence (null in JSON).
public struct ChannelAnalysis: Sendable {
    /// 1-based.
    public var index: Int
    public var name: String
    public var statistics: LevelStatistics
    /// Sample peak, dBFS, and the time it first occurs (seconds from the start of the file).
    public var peak: Double
    public var peakTime: Double?
    /// True peak, dBTP (BS.1770-4, 4× oversampling; never below the sample peak).
    public var truePeak: Double
    /// Where the true peak lies, seconds from the start of the file (between samples when an
    /// interpolated value is the peak); nil for digital silence.
    public var truePeakTime: Double?
    /// RMS in dBFS by the analysis' RMS reference.
    public var rms: Double
    /// Sample peak over RMS (as a ratio of amplitudes), dB.
    public var crest: Double
    /// Mean sample value (full scale = 1).
    public var dcOffset: Double
    public var minimum: Double
    public var maximum: Double
    public var clippedSamples: Int64
    public var clipEvents: Int64
    /// Sign changes per second.
    public var zeroCrossingRate: Double
    /// Seconds before the first and after the last sample at or above the silence threshold.
    public var leadingSilence: Double
    public var trailingSilence: Double
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
    public var nonFiniteSamples: Int64
    public var spectral: SpectralFindings
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
