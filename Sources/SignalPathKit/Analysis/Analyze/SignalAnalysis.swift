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
