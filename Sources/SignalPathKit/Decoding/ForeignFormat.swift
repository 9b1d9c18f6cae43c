/// Containers and codecs that libsndfile does not read, recognised by their first bytes, so that
/// an error can say what a file looks like: FFmpeg reads most of them, and when its libraries are
/// not installed, or a file is damaged beyond what FFmpeg opens, the error names the format (and,
/// without FFmpeg, how to convert it).
///
/// Only signatures that random data or a damaged WAV rarely produce: magic numbers of four or
/// more bytes, or a two-byte sync word confirmed by a field that must hold a valid value (ADTS:
/// the next frame's sync where the file is long enough; AC-3: its bitstream id).
public enum ForeignFormat: Equatable, Sendable {
    /// ISO base media (MP4, M4A, MOV, 3GP) with its major brand.
    case isoMedia(brand: String)
    /// QuickTime without an `ftyp` box (older MOV files start with `moov`, `mdat`, `wide`, `free`).
    case quickTime
    case matroska, webm
    /// AAC in ADTS frames (`.aac`).
    case adts
    case ac3, eac3, dts
    /// ASF: WMA and WMV.
    case asf
    case wavPack, monkeysAudio, amr
    /// Standard MIDI: notes, not sound.
    case midi

    /// What the file looks like, for people: `MP4/M4A, AAC or ALAC audio`.
    public var name: String {
        switch self {
        case .isoMedia(let brand):
            switch brand {
            case "M4A ", "M4B ", "M4P ": return "MP4/M4A, AAC or ALAC audio"
            case "qt  ": return "QuickTime MOV"
            case "heic", "heix", "mif1", "msf1", "avif": return "an HEIF/AVIF image"
            default: return brand.hasPrefix("3g") ? "3GP, MP4 family" : "MP4, brand '\(brand.filter { $0.isLetter || $0.isNumber })'"
            }
        case .quickTime: return "QuickTime MOV"
        case .matroska: return "Matroska, MKV/MKA"
        case .webm: return "WebM"
        case .adts: return "AAC in ADTS frames"
        case .ac3: return "AC-3, Dolby Digital"
        case .eac3: return "E-AC-3, Dolby Digital Plus"
        case .dts: return "DTS"
        case .asf: return "ASF, WMA/WMV"
        case .wavPack: return "WavPack"
        case .monkeysAudio: return "Monkey's Audio, APE"
        case .amr: return "AMR speech"
        case .midi: return "MIDI"
        }
    }

    /// False for what holds no sound at all (MIDI, HEIF/AVIF images).
    public var isSound: Bool {
        if self == .midi { return false }
        if case .isoMedia(let brand) = self, ["heic", "heix", "mif1", "msf1", "avif"].contains(brand) { return false }
        return true
    }

    /// The sentence after "not a recognised audio format": what it looks like and what to do.
    /// `path` is quoted into the ffmpeg command when it can be pasted as it is.
    public func explanation(path: String) -> String {
        if self == .midi { return "looks like MIDI, which holds notes, not sound; render it to WAV with a synthesizer such as fluidsynth or timidity" }
        if case .isoMedia(let brand) = self, ["heic", "heix", "mif1", "msf1", "avif"].contains(brand) { return "looks like \(name), not sound" }
        let safe = !path.isEmpty && path != "-" && !path.hasPrefix("-") && path.unicodeScalars.allSatisfy { Self.pastable.contains($0) }
        let input = path == "-" ? "INPUT" : safe ? path : "FILE"
        return "looks like \(name); signalpath reads it through FFmpeg's libraries, which are not installed (Debian: libavformat59 libavcodec59), "
            + "or convert with: ffmpeg -i \(input) -c:a pcm_f32le out.wav"
    }

    /// Characters a shell takes literally in a word.
    private static let pastable = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-,@%:=".unicodeScalars)

    /// How many leading bytes `sniff` wants (an ID3 tag in front can make it look further).
    public static let prefixLength = 4096

    /// The format `bytes` (the start of a file) look like, or nil.
    public static func sniff(_ bytes: [UInt8]) -> ForeignFormat? {
        func ascii(_ range: Range<Int>) -> String? {
            guard range.upperBound <= bytes.count else { return nil }
            return String(decoding: bytes[range], as: UTF8.self)
        }
        func starts(with prefix: [UInt8]) -> Bool { bytes.count >= prefix.count && Array(bytes[0..<prefix.count]) == prefix }
        // An ID3v2 tag in front of something else (libsndfile reads ID3 + MP3): look behind it.
        if starts(with: Array("ID3".utf8)), bytes.count >= 10 {
            let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) } + 10 + (bytes[5] & 0x10 != 0 ? 10 : 0)
            return size < bytes.count ? sniff(Array(bytes[size...])) : nil
        }
        if ascii(4..<8) == "ftyp", let brand = ascii(8..<12) { return .isoMedia(brand: brand) }
        if let box = ascii(4..<8), ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(box) { return .quickTime }
        if starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            // The EBML header names its document type within its first few dozen bytes.
            let head = String(decoding: bytes.prefix(64).map { (0x20..<0x7F).contains($0) ? $0 : 0x20 }, as: UTF8.self)
            return head.contains("webm") ? .webm : .matroska
        }
        if starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return .asf }
        if starts(with: [0x7F, 0xFE, 0x80, 0x01]) { return .dts }
        if starts(with: Array("wvpk".utf8)) { return .wavPack }
        if starts(with: Array("MAC ".utf8)) { return .monkeysAudio }
        if starts(with: Array("#!AMR".utf8)) { return .amr }
        if starts(with: Array("MThd".utf8)) { return .midi }
        if isADTS(bytes) { return .adts }
        if starts(with: [0x0B, 0x77]), bytes.count >= 6 {
            // bsid: up to 8 for AC-3 (10 allowed by decoders), 11…16 for E-AC-3.
            let bitstreamID = bytes[5] >> 3
            if bitstreamID <= 10 { return .ac3 }
            if bitstreamID <= 16 { return .eac3 }
        }
        return nil
    }

    /// An ADTS header (sync 0xFFF, layer 0) whose frame length leads to another header, or to the
    /// end of what was read.
    private static func isADTS(_ bytes: [UInt8]) -> Bool {
        func header(at offset: Int) -> Int? {
            guard offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF6 == 0xF0 else { return nil }
            let length = Int(bytes[offset + 3] & 0x03) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5]) >> 5
            return length >= 7 ? length : nil
        }
        guard let length = header(at: 0) else { return false }
        return length + 7 > bytes.count || header(at: length) != nil
    }
}
