/// The facts about an audio file's format that every command reports the same way.
public struct AudioFormat: Sendable, Equatable {
    public var container: Container
    public var sampleFormat: SampleFormat
    /// Frames per second, in Hz.
    public var sampleRate: Int
    public var channels: Int
    /// Frames (one sample per channel) in the file; nil when a stream does not say.
    public var frames: Int64?
    /// The loudspeaker each channel feeds, and the channels' names: the file's own layout, or
    /// without one the usual layout for the format and channel count.
    public var channelLayout: ChannelLayout
    /// The frames the header promises, when the file holds fewer (`frames`): a file cut short,
    /// which is analysed as far as it goes. Nil for a complete file.
    public var framesPromised: Int64?

    public init(
        container: Container, sampleFormat: SampleFormat, sampleRate: Int, channels: Int, frames: Int64?, framesPromised: Int64? = nil,
        channelLayout: ChannelLayout? = nil
    ) {
        self.container = container
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channels = channels
        self.frames = frames
        self.channelLayout =
            channelLayout.flatMap { $0.channelCount == channels ? $0 : nil }
            ?? ChannelLayout.assumed(channels: channels, container: container, sampleFormat: sampleFormat)
        self.framesPromised = framesPromised
    }

    /// True when the file holds fewer frames than its header promises.
    public var isTruncated: Bool { framesPromised != nil }

    /// Length in seconds, or nil when the frame count is unknown.
    public var duration: Double? {
        frames.map { Double($0) / Double(sampleRate) }
    }
}

// MARK: - What is usable audio

extension AudioFormat {
    /// The sample rates signalpath reads: whole hertz from 1 to 2³¹ − 1, the range of the `int`
    /// that holds a rate in libsndfile and in ffmpeg (which refuses larger ones too). A header that
    /// states anything else — 0, a WAV rate of 2³¹ Hz or more, an AIFF rate below 1 Hz, infinite or
    /// NaN — is not usable audio (exit 65), whichever decoder would read the samples. Rates inside
    /// the range are analysed however extreme; what a measurement cannot mean at a rate (loudness
    /// outside `Loudness.measurableSampleRates`) is null.
    public static let usableSampleRates = 1...Int(Int32.max)

    /// Channels signalpath reads: up to libsndfile's limit (`SF_MAX_CHANNELS`), for streams too.
    public static let usableChannelCounts = 1...1024

    /// The rate a header states (`stated` Hz; an AIFF rate may be fractional, and is read as its
    /// whole part, as libsndfile does), or `malformed` when it is outside `usableSampleRates`.
    static func usableSampleRate(_ stated: Double, path: String) throws(SignalPathError) -> Int {
        let range = usableSampleRates
        guard stated.isFinite, stated >= Double(range.lowerBound), stated < Double(range.upperBound) + 1 else {
            let value = stated.isNaN ? "NaN" : stated.isInfinite ? "infinite" : "\(UnitFormat.shortest(stated)) Hz"
            throw .malformed(
                path: path, reason: "the header's sample rate (\(value)) is not usable: signalpath reads \(range.lowerBound) to \(range.upperBound) Hz")
        }
        return Int(stated.rounded(.towardZero))
    }

    /// `count`, or `malformed` when it is outside `usableChannelCounts`.
    static func usableChannelCount(_ count: Int, path: String) throws(SignalPathError) -> Int {
        let range = usableChannelCounts
        guard count > 0 else { throw .malformed(path: path, reason: "no audio channels") }
        guard range.contains(count) else {
            throw .malformed(path: path, reason: "\(count) channels: signalpath reads \(range.lowerBound) to \(range.upperBound)")
        }
        return count
    }
}

/// The file format (the wrapper around the samples), named as sox and ffmpeg users know it.
public enum Container: String, Sendable, CaseIterable {
    case wav, wavex, rf64, w64, aiff, caf, flac, ogg, mpeg, au, raw, paf, svx, nist, voc, ircam
    case mat4, mat5, pvf, xi, htk, sds, avr, sd2, wve, mpc2k
    /// Read through FFmpeg: MP4/M4A/MOV, Matroska, WebM, ASF (WMA), raw AC-3, E-AC-3, ADTS and DTS.
    case mp4, matroska, webm, asf, ac3, eac3, adts, dts
    case other

    /// A short name for people.
    public var displayName: String {
        switch self {
        case .wav: return "WAV"
        case .wavex: return "WAV (WAVE_FORMAT_EXTENSIBLE)"
        case .rf64: return "RF64 (64-bit WAV)"
        case .w64: return "Sony Wave64"
        case .aiff: return "AIFF"
        case .caf: return "Core Audio Format"
        case .flac: return "FLAC"
        case .ogg: return "Ogg"
        case .mpeg: return "MPEG audio"
        case .au: return "Sun/NeXT AU"
        case .raw: return "raw"
        case .mp4: return "MP4/M4A/MOV"
        case .matroska: return "Matroska"
        case .webm: return "WebM"
        case .asf: return "ASF (WMA/WMV)"
        case .ac3: return "AC-3"
        case .eac3: return "E-AC-3"
        case .adts: return "AAC in ADTS frames"
        case .other: return "other"
        default: return rawValue.uppercased()
        }
    }
}

/// How samples are encoded inside the container.
public enum SampleFormat: Sendable, Equatable {
    /// Linear PCM, signed or unsigned integers of `bits` bits.
    case pcm(bits: Int, signed: Bool)
    /// IEEE floating point of `bits` bits.
    case float(bits: Int)
    case ulaw, alaw
    /// Lossless codecs that are not plain PCM (ALAC), with their bit depth.
    case lossless(codec: String, bits: Int)
    /// Lossy codecs (Vorbis, Opus, MPEG layers) and ADPCM variants: no bit depth.
    case compressed(codec: String)

    /// A stable snake_case identifier for machine output (`pcm_s16`, `float32`, `vorbis`, …).
    public var identifier: String {
        switch self {
        case .pcm(let bits, let signed): return "pcm_\(signed ? "s" : "u")\(bits)"
        case .float(let bits): return "float\(bits)"
        case .ulaw: return "ulaw"
        case .alaw: return "alaw"
        case .lossless(let codec, let bits): return "\(codec)\(bits)"
        case .compressed(let codec): return codec
        }
    }

    /// Bits per sample where the encoding has them, or nil for compressed formats.
    public var bitDepth: Int? {
        switch self {
        case .pcm(let bits, _), .float(let bits), .lossless(_, let bits): return bits
        case .ulaw, .alaw: return 8
        case .compressed: return nil
        }
    }

    /// A description for people: "16-bit signed integer PCM", "Vorbis (lossy)".
    public var displayName: String {
        switch self {
        case .pcm(let bits, let signed): return "\(bits)-bit \(signed ? "signed" : "unsigned") integer PCM"
        case .float(let bits): return "\(bits)-bit floating point"
        case .ulaw: return "8-bit µ-law"
        case .alaw: return "8-bit A-law"
        case .lossless(let codec, let bits): return "\(bits)-bit \(codec.uppercased()) (lossless)"
        case .compressed(let codec):
            switch codec {
            case "vorbis": return "Vorbis (lossy)"
            case "opus": return "Opus (lossy)"
            case "mp1", "mp2", "mp3": return "MPEG audio \(codec.uppercased()) (lossy)"
            case "aac": return "AAC (lossy)"
            case "ac3": return "AC-3 (lossy)"
            case "eac3": return "E-AC-3 (lossy)"
            case "wmav1", "wmav2": return "WMA v\(codec.suffix(1)) (lossy)"
            case "wmapro": return "WMA Pro (lossy)"
            default: return codec.split(separator: "_").joined(separator: " ").uppercased()
            }
        }
    }
}

/// One metadata string from a file's tags (title, artist, …), as the file has it: not sanitized.
public struct MetadataEntry: Sendable, Equatable {
    /// snake_case key: title, copyright, software, artist, comment, date, album, license, track_number, genre.
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
