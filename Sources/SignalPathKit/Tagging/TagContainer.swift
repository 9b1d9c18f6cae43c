/// The tag a file's loudness fields go into, by what the file holds: what players of each read.
public enum TagContainer: String, Sendable, CaseIterable {
    /// FLAC: Vorbis comments in the metadata blocks.
    case flac
    /// Ogg Vorbis: the comment header.
    case oggVorbis = "ogg_vorbis"
    /// Ogg Opus: the comment header, with R128 gains (RFC 7845) and no ReplayGain fields.
    case oggOpus = "ogg_opus"
    /// MP3: ID3v2 TXXX frames (and an APEv2 tag's items, where the file has one).
    case mp3
    /// MP4/M4A: iTunes freeform atoms (`----:com.apple.iTunes:…`).
    case mp4

    /// The container of an opened file, or nil when signalpath writes no tags into it.
    public init?(format: AudioFormat) {
        let codec: String? = if case .compressed(let name) = format.sampleFormat { name } else { nil }
        switch format.container {
        case .flac: self = .flac
        case .ogg where codec == "vorbis": self = .oggVorbis
        case .ogg where codec == "opus": self = .oggOpus
        case .mpeg where codec == "mp3": self = .mp3
        case .mp4: self = .mp4
        default: return nil
        }
    }

    /// Opus carries R128 gains in Q7.8 relative to −23 LUFS, every other container ReplayGain 2.0's.
    public var usesR128: Bool { self == .oggOpus }
}
