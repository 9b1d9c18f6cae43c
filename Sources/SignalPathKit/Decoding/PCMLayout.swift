/// Where the samples of an uncompressed PCM file lie, and how they are encoded: what the direct
/// PCM decoder needs to convert bytes to Float without libsndfile.
///
/// Parsed from WAV (RIFF, WAVE_FORMAT_EXTENSIBLE), RF64/BW64, Sony Wave64 and AIFF/AIFC headers,
/// through a `ByteCursor`, so the same parser serves files and streams. For files, `AudioFile`
/// uses a layout only when it agrees with what libsndfile read from the same header, so a header
/// this parser misreads falls back to libsndfile instead of decoding garbage. For streams it is
/// what lets PCM be decoded as it arrives.
struct PCMLayout: Equatable {
    enum Encoding: Equatable {
        case unsigned8, signed8, signed16, signed24, signed32, float32, float64

        var bytesPerSample: Int {
            switch self {
            case .unsigned8, .signed8: return 1
            case .signed16: return 2
            case .signed24: return 3
            case .signed32, .float32: return 4
            case .float64: return 8
            }
        }

        /// The sample format libsndfile reports for the same data.
        var sampleFormat: SampleFormat {
            switch self {
            case .unsigned8: return .pcm(bits: 8, signed: false)
            case .signed8: return .pcm(bits: 8, signed: true)
            case .signed16: return .pcm(bits: 16, signed: true)
            case .signed24: return .pcm(bits: 24, signed: true)
            case .signed32: return .pcm(bits: 32, signed: true)
            case .float32: return .float(bits: 32)
            case .float64: return .float(bits: 64)
            }
        }
    }

    var container: Container
    var encoding: Encoding
    var bigEndian: Bool
    var channels: Int
    var sampleRate: Int
    /// Byte offset of the first sample.
    var dataOffset: Int64
    /// Whole frames present: the data chunk's size, limited to what the file holds; nil when a
    /// stream's header does not say (a writer to a pipe puts a placeholder there).
    var frames: Int64?
    /// The frames the header promises when the file holds fewer (`frames`); nil for a complete
    /// file, and for a stream (whose end is found by reading it).
    var framesPromised: Int64?
    /// WAV `LIST`/`INFO` tags met before the samples (libsndfile reads tags for files; this is
    /// for streams).
    var metadata: [MetadataEntry] = []
    /// The layout a WAVE_FORMAT_EXTENSIBLE channel mask states; nil without one.
    var channelLayout: ChannelLayout? = nil
    /// WAVE_FORMAT_EXTENSIBLE's valid bits where they are fewer than the container's (20-bit
    /// samples in 24-bit words, the low bits zero): the depth FLAC encodes and hashes them at.
    var validBits: Int? = nil
    /// The RF64 ds64 data size is all ones, as libsndfile leaves it while writing: libsndfile
    /// itself refuses such a file, so `AudioFile` reads it by this layout alone.
    var writerPlaceholder = false
    /// A WAV or RF64 file that holds its format, the samples to the file's last byte, and nothing
    /// else that libsndfile reads (no tags, no chunk after the samples, no placeholder, not cut
    /// short): this parser has read all that libsndfile would, so `AudioFile` does not load it.
    var holdsNothingElse = false

    var bytesPerFrame: Int { encoding.bytesPerSample * channels }

    /// The format this layout states, with `frames` as its length (nil where it is not known).
    func format(frames: Int64?) -> AudioFormat {
        AudioFormat(
            container: container, sampleFormat: encoding.sampleFormat, sampleRate: sampleRate, channels: channels, frames: frames,
            channelLayout: channelLayout)
    }

    /// What a WAV, RF64, Wave64 or AIFF header states, whatever the encoding: the rate and
    /// channels (checked against `AudioFormat.usableSampleRates` and `usableChannelCounts`), and the
    /// layout when the samples are plain PCM.
    struct Header: Equatable {
        var sampleRate: Int
        var channels: Int
        var layout: PCMLayout?
    }

    /// Parses the header read through `cursor`, or returns nil when it is not plain PCM in a
    /// container this parser knows. `size` is the file's size, nil for a stream.
    /// - Throws: `malformed` when the header states a rate or channel count that is not usable.
    static func parse(_ cursor: ByteCursor, size: Int64?, path: String) throws(SignalPathError) -> PCMLayout? {
        try parseHeader(cursor, size: size, path: path)?.layout
    }

    /// Parses the header read through `cursor`; nil when it is not a container this parser knows,
    /// or is too damaged to say a rate and channel count.
    static func parseHeader(_ cursor: ByteCursor, size: Int64?, path: String) throws(SignalPathError) -> Header? {
        let parser = HeaderParser(cursor: cursor, size: size ?? Int64.max, isStream: size == nil, path: path)
        let start = ByteView(try cursor.bytes(in: 0..<16))
        switch start.tag(at: 0) {
        case "RIFF", "RF64", "BW64": return try parser.parseWAV(isRF64: start.tag(at: 0) != "RIFF")
        case "riff": return try parser.parseW64()
        case "FORM": return try parser.parseAIFF(form: start.tag(at: 8))
        default: return nil
        }
    }
}

/// Walks the chunks of a header; one per parse.
private struct HeaderParser {
    typealias Encoding = PCMLayout.Encoding
    typealias Header = PCMLayout.Header
    /// The `fmt ` chunk of WAV, RF64 and Wave64; `encoding` is nil for what is not plain PCM.
    typealias WAVFormat = (encoding: Encoding?, channels: Int, sampleRate: Int, blockAlign: Int, extensible: Bool, channelMask: UInt32, validBits: Int?)
    let cursor: ByteCursor
    /// The file's size, or `Int64.max` for a stream.
    let size: Int64
    let isStream: Bool
    let path: String

    func bytes(_ range: Range<Int64>) throws(SignalPathError) -> [UInt8] {
        try cursor.bytes(in: range)
    }

    /// Frames in a data chunk of `declared` bytes starting at `offset` (nil when a stream's header
    /// holds a placeholder rather than a size), and the frames it promises when the file ends
    /// before its end (nil for a placeholder, a stream, or a chunk the file holds whole).
    func frames(declared: UInt64, offset: Int64, bytesPerFrame: Int, placeholder: Bool) -> (present: Int64?, promised: Int64?) {
        if isStream && placeholder { return (nil, nil) }
        let available = UInt64(max(0, size - offset))
        let present = Int64(min(declared, available) / UInt64(bytesPerFrame))
        let promised = Int64(clamping: declared / UInt64(bytesPerFrame))
        return (present, !isStream && !placeholder && promised > present ? promised : nil)
    }

    // MARK: WAV and RF64

    func parseWAV(isRF64: Bool) throws(SignalPathError) -> Header? {
        guard ByteView(try bytes(8..<12)).tag(at: 0) == "WAVE" else { return nil }
        var format: WAVFormat?
        var dataSize64: UInt64?
        var metadata: [MetadataEntry] = []
        // Only the chunks libsndfile takes nothing from for its format or tags (fmt, ds64, fact,
        // padding) seen so far.
        var onlyFormatChunks = true
        var position: Int64 = 12
        for _ in 0..<256 {
            let header = ByteView(try bytes(position..<position + 8))
            guard let id = header.tag(at: 0), let size32 = header.uint32(at: 4) else { break }
            let body = position + 8
            if !["ds64", "fmt ", "fact", "JUNK", "PAD ", "data"].contains(id) { onlyFormatChunks = false }
            switch id {
            case "ds64":
                dataSize64 = ByteView(try bytes(body..<body + 16)).uint64(at: 8)
            case "fmt ":
                format = try parseWAVFormat(ByteView(try bytes(body..<body + Int64(min(size32, 40)))))
                guard format != nil else { return nil }
            case "LIST" where isStream && size32 <= 1 << 16:
                metadata += Self.infoTags(ByteView(try bytes(body..<body + Int64(size32))))
            case "data":
                guard let format else { return nil }
                var header = Header(sampleRate: format.sampleRate, channels: format.channels, layout: nil)
                guard let encoding = format.encoding, format.blockAlign == encoding.bytesPerSample * format.channels else { return header }
                var declared = UInt64(size32)
                // All ones is a writer's placeholder, not a size: libsndfile leaves it in the ds64
                // chunk of a file it is still writing (`record`) between header updates, so the
                // data runs to the end of the file, as with a RIFF size of 0xFFFFFFFF.
                let sizeUnknown = isRF64 && dataSize64 == UInt64.max
                if isRF64, size32 == 0xFFFF_FFFF, let dataSize64, !sizeUnknown {
                    // As ffmpeg (which reads it as negative): no file holds 2⁶³ bytes, and libsndfile
                    // refused such a file ("Unspecified internal error") that a pipe would pass.
                    guard dataSize64 < 1 << 63 else {
                        throw .malformed(path: path, reason: "the ds64 chunk's data size (\(dataSize64) bytes) is larger than any file")
                    }
                    declared = dataSize64
                }
                if sizeUnknown { declared = .max }
                let placeholder = sizeUnknown || size32 == 0 || size32 >= 0x7FFF_0000 && !(isRF64 && dataSize64 != nil)
                let frames = frames(declared: declared, offset: body, bytesPerFrame: format.blockAlign, placeholder: placeholder)
                header.layout = PCMLayout(
                    container: isRF64 ? .rf64 : (format.extensible ? .wavex : .wav), encoding: encoding,
                    bigEndian: false, channels: format.channels, sampleRate: format.sampleRate, dataOffset: body,
                    frames: frames.present, framesPromised: frames.promised, metadata: metadata,
                    channelLayout: ChannelLayout(channelMask: format.channelMask, channels: format.channels))
                header.layout?.validBits = format.validBits
                header.layout?.writerPlaceholder = sizeUnknown
                header.layout?.holdsNothingElse =
                    !isStream && onlyFormatChunks && !placeholder && frames.promised == nil
                    && Int64(exactly: declared).map { body + $0 == size } == true
                return header
            default:
                break
            }
            position = body + Int64(size32) + Int64(size32 & 1)
            if position >= size { break }
        }
        return format.map { Header(sampleRate: $0.sampleRate, channels: $0.channels, layout: nil) }
    }

    /// Title, artist and the other tags of a `LIST` chunk of type `INFO`.
    private static func infoTags(_ view: ByteView) -> [MetadataEntry] {
        guard view.tag(at: 0) == "INFO" else { return [] }
        let keys = [
            "INAM": "title", "IART": "artist", "IPRD": "album", "ITRK": "track_number", "ICRD": "date",
            "IGNR": "genre", "ICMT": "comment", "ICOP": "copyright", "ISFT": "software",
        ]
        var entries: [MetadataEntry] = []
        var offset = 4
        while let id = view.tag(at: offset), let size = view.uint32(at: offset + 4).map(Int.init),
            let value = view.slice(at: offset + 8, count: size)
        {
            let text = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
            if let key = keys[id], !text.isEmpty { entries.append(MetadataEntry(key: key, value: text)) }
            offset += 8 + size + size % 2
        }
        return entries
    }

    private static let extensibleGUIDTail: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00,
        0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
    ]

    /// The `fmt ` chunk, nil when it is too short to hold one.
    /// - Throws: `malformed` for a rate or channel count that is not usable, whatever the encoding.
    private func parseWAVFormat(_ view: ByteView) throws(SignalPathError) -> WAVFormat? {
        guard var tag = view.uint16(at: 0), let channelField = view.uint16(at: 2), let rateField = view.uint32(at: 4),
            let blockAlign = view.uint16(at: 12), let bits = view.uint16(at: 14)
        else { return nil }
        let channels = try AudioFormat.usableChannelCount(Int(channelField), path: path)
        let rate = try AudioFormat.usableSampleRate(Double(rateField), path: path)
        let extensible = tag == 0xFFFE
        var channelMask: UInt32 = 0
        var validBits: Int?
        if extensible {
            guard let subFormat = view.uint16(at: 24), view.slice(at: 26, count: 14).map(Array.init) == Self.extensibleGUIDTail else {
                return (nil, channels, rate, Int(blockAlign), extensible, 0, nil)
            }
            tag = subFormat
            channelMask = view.uint32(at: 20) ?? 0
            if tag == 1, let valid = view.uint16(at: 18), valid >= 1, valid < bits { validBits = Int(valid) }
        }
        let encoding: Encoding?
        switch (tag, bits) {
        case (1, 8): encoding = .unsigned8
        case (1, 16): encoding = .signed16
        case (1, 24): encoding = .signed24
        case (1, 32): encoding = .signed32
        case (3, 32): encoding = .float32
        case (3, 64): encoding = .float64
        default: encoding = nil
        }
        return (encoding, channels, rate, Int(blockAlign), extensible, channelMask, validBits)
    }

    // MARK: Wave64

    private static let w64Wave: [UInt8] = [
        0x77, 0x61, 0x76, 0x65, 0xF3, 0xAC, 0xD3, 0x11,
        0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A,
    ]
    private static let w64GUIDTail: [UInt8] = [0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A]

    func parseW64() throws(SignalPathError) -> Header? {
        let riff = ByteView(try bytes(0..<40))
        guard riff.slice(at: 24, count: 16).map(Array.init) == Self.w64Wave else { return nil }
        var format: WAVFormat?
        var position: Int64 = 40
        for _ in 0..<256 {
            let header = ByteView(try bytes(position..<position + 24))
            guard let tail = header.slice(at: 4, count: 12), Array(tail) == Self.w64GUIDTail,
                let id = header.tag(at: 0), let declaredSize = header.uint64(at: 16), declaredSize >= 24
            else { break }
            // A writer to a pipe puts a placeholder (up to 2^64 − 1) in the data chunk's size.
            let placeholder = declaredSize >= UInt64(Int64.max / 2)
            guard !placeholder || id == "data" else { break }
            let body = position + 24
            let bodySize = placeholder ? Int64.max / 2 : Int64(declaredSize) - 24
            switch id {
            case "fmt ":
                format = try parseWAVFormat(ByteView(try bytes(body..<body + min(bodySize, 40))))
                guard format != nil else { return nil }
            case "data":
                guard let format else { return nil }
                var header = Header(sampleRate: format.sampleRate, channels: format.channels, layout: nil)
                guard let encoding = format.encoding, format.blockAlign == encoding.bytesPerSample * format.channels else { return header }
                let frames = frames(
                    declared: UInt64(bodySize), offset: body, bytesPerFrame: format.blockAlign, placeholder: placeholder || bodySize == 0)
                header.layout = PCMLayout(
                    container: .w64, encoding: encoding, bigEndian: false, channels: format.channels,
                    sampleRate: format.sampleRate, dataOffset: body, frames: frames.present, framesPromised: frames.promised,
                    channelLayout: ChannelLayout(channelMask: format.channelMask, channels: format.channels))
                header.layout?.validBits = format.validBits
                return header
            default:
                break
            }
            position = body + bodySize
            position += (8 - position % 8) % 8
            if position >= size { break }
        }
        return format.map { Header(sampleRate: $0.sampleRate, channels: $0.channels, layout: nil) }
    }

    // MARK: AIFF and AIFC

    func parseAIFF(form: String?) throws(SignalPathError) -> Header? {
        guard form == "AIFF" || form == "AIFC" else { return nil }
        var common: (channels: Int, frames: UInt32, bits: Int, sampleRate: Int, compression: String)?
        var position: Int64 = 12
        for _ in 0..<256 {
            let header = ByteView(try bytes(position..<position + 8))
            guard let id = header.tag(at: 0), let chunkSize = header.uint32(at: 4, bigEndian: true) else { break }
            let body = position + 8
            switch id {
            case "COMM":
                let view = ByteView(try bytes(body..<body + Int64(min(chunkSize, 22))))
                guard let channelField = view.uint16(at: 0, bigEndian: true), let frames = view.uint32(at: 2, bigEndian: true),
                    let bits = view.uint16(at: 6, bigEndian: true), let rateField = view.slice(at: 8, count: 10)
                else { return nil }
                let channels = try AudioFormat.usableChannelCount(Int(channelField), path: path)
                let rate = try AudioFormat.usableSampleRate(Self.extended(rateField), path: path)
                let compression = form == "AIFC" ? (view.tag(at: 18) ?? "") : "NONE"
                common = (channels, frames, Int(bits), rate, compression)
            case "SSND":
                guard let common else { return nil }
                var header = Header(sampleRate: common.sampleRate, channels: common.channels, layout: nil)
                guard let encoding = Self.aiffEncoding(bits: common.bits, compression: common.compression),
                    let offset = ByteView(try bytes(body..<body + 8)).uint32(at: 0, bigEndian: true)
                else { return header }
                let dataOffset = body + 8 + Int64(offset)
                let bytesPerFrame = encoding.bytesPerSample * common.channels
                let declared = UInt64(max(0, Int64(chunkSize) - 8 - Int64(offset)))
                let placeholder = chunkSize == 0 || chunkSize >= 0x7FFF_0000 || common.frames == 0
                let present = frames(declared: declared, offset: dataOffset, bytesPerFrame: bytesPerFrame, placeholder: placeholder)
                    .present.map { min($0, Int64(common.frames)) }
                // The frame count of COMM is the promise (the SSND chunk may hold padding after it).
                let promised = Int64(common.frames)
                header.layout = PCMLayout(
                    container: .aiff, encoding: encoding, bigEndian: common.compression != "sowt",
                    channels: common.channels, sampleRate: common.sampleRate, dataOffset: dataOffset,
                    frames: present, framesPromised: !isStream && !placeholder && promised > (present ?? promised) ? promised : nil)
                return header
            default:
                break
            }
            position = body + Int64(chunkSize) + Int64(chunkSize & 1)
            if position >= size { break }
        }
        return common.map { Header(sampleRate: $0.sampleRate, channels: $0.channels, layout: nil) }
    }

    private static func aiffEncoding(bits: Int, compression: String) -> Encoding? {
        switch (compression, bits) {
        case ("NONE", 8), ("twos", 8): return .signed8
        case ("NONE", 16), ("twos", 16), ("sowt", 16): return .signed16
        case ("NONE", 24), ("in24", 24), ("sowt", 24): return .signed24
        case ("NONE", 32), ("in32", 32), ("sowt", 32): return .signed32
        case ("fl32", _), ("FL32", _): return .float32
        case ("fl64", _), ("FL64", _): return .float64
        default: return nil
        }
    }

    /// The value of an 80-bit IEEE 754 extended float, big-endian (AIFF's sample rate field):
    /// ±∞ and NaN as such, denormals as the tiny numbers they are, finite values beyond a Double as
    /// its largest.
    static func extended(_ bytes: ArraySlice<UInt8>) -> Double {
        let view = ByteView(Array(bytes))
        guard let signAndExponent = view.uint16(at: 0, bigEndian: true), let mantissa = view.uint64(at: 2, bigEndian: true)
        else { return .nan }
        let sign: FloatingPointSign = signAndExponent & 0x8000 == 0 ? .plus : .minus
        let exponent = Int(signAndExponent & 0x7FFF)
        if exponent == 0x7FFF {
            return mantissa << 1 == 0 ? (sign == .plus ? .infinity : -.infinity) : .nan
        }
        // value = mantissa · 2^(exponent − 16383 − 63); a denormal's exponent counts as 1.
        let value = Double(sign: sign, exponent: max(exponent, 1) - 16383 - 63, significand: Double(mantissa))
        return value.isInfinite ? (sign == .plus ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude) : value
    }
}
