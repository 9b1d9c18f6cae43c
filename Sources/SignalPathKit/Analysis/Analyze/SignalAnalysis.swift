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
