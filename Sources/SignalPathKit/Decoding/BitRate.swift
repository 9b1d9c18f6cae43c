/// The decoded stream's bit rate in bits per second, as its header states it and as its coded
/// bytes measure it (`AudioFile.bitRate()`).
public struct BitRate: Sendable, Equatable {
    /// As the container or codec header states it: FFmpeg's `bit_rate` (for MP4, FFmpeg's own sum
    /// of the sample table over the track's duration), an MP3's first frame or its Xing or VBRI
    /// average, a Vorbis identification header's nominal rate; nil where the stream states none
    /// (FLAC, Opus). For PCM, sample rate × channels × bits.
    public var stated: Double?
    /// The stream's coded bytes × 8 / the decoded duration (after the encoder's delay and padding
    /// are trimmed); nil where those bytes are not known without reading the whole file, or the
    /// stream is empty. For PCM, equal to `stated`.
    public var measured: Double?
    /// True for PCM (integer, float, µ-law, A-law), whose bit rate is exact.
    public var isExact: Bool

    public init(stated: Double?, measured: Double?, isExact: Bool = false) {
        self.stated = stated
        self.measured = measured
        self.isExact = isExact
    }
}
