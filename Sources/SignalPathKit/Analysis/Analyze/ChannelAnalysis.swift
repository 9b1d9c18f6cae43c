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
