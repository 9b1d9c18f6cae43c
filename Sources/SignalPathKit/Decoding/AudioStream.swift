/// One audio stream of a file, as `info` lists it. A file libsndfile reads has exactly one; a
/// container read through FFmpeg (MP4, Matroska, ASF, …) may have several, numbered from 0 among
/// the audio streams only, as ffmpeg's `-map 0:a:N` counts them.
public struct AudioStream: Sendable, Equatable {
    /// The number among the file's audio streams (what `--stream` takes).
    public var number: Int
    /// The codec's short name as ffmpeg calls it (`aac`, `alac`, `opus`, `ac3`, `wmav2`).
    public var codec: String
    public var sampleRate: Int
    public var channels: Int
    public var channelLayout: ChannelLayout
    /// Seconds, as the container states them for a stream that is not decoded (exact for the one
    /// that is); nil when the container does not say.
    public var duration: Double?
    /// The stream's `language` tag (ISO 639-2, `eng`), as the file has it: not sanitized.
    public var language: String?
    /// The stream's `title` tag, as the file has it: not sanitized.
    public var title: String?
    /// Bits per second as the container or codec header states it (FFmpeg's `bit_rate`); nil where
    /// it states none. `AudioFile.bitRate()` gives the decoded stream's, stated and measured.
    public var bitRate: Int?

    public init(
        number: Int, codec: String, sampleRate: Int, channels: Int, channelLayout: ChannelLayout, duration: Double?, language: String?,
        title: String?, bitRate: Int? = nil
    ) {
        self.number = number
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.channelLayout = channelLayout
        self.duration = duration
        self.language = language
        self.title = title
        self.bitRate = bitRate
    }
}
