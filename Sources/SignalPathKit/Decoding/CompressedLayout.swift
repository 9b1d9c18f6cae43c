/// Where the coded audio of an MP3, FLAC or Ogg file lies — after the tags, cover art and codec
/// headers ahead of it, before the tags behind it — and the bit rate its header states: what the
/// bit rates of `info` need from a file libsndfile decodes (`PCMLayout` is the same for PCM).
/// Only headers are read: the file's first bytes, the tags' and metadata blocks' headers (their
/// contents are skipped), the Ogg header pages, and for MP3 and FLAC the last 160 bytes, where
/// ID3v1 and APE tags lie. (Counting an MP3's frames where no table states them reads every
/// frame's header: `untabledMPEGSamples`.)
struct CompressedLayout: Equatable {
    /// The coded audio: MPEG audio frames, FLAC frames, or the Ogg pages after the codec's
    /// header packets (their page headers and lacing values included).
    var audio: Range<Int64>
    /// Bits per second as the stream's header states it, or nil where the format states none
    /// (FLAC, Opus): FFmpeg's readings of the same headers (`ffprobe -show_entries stream=bit_rate`).
    var statedBitRate: Double?

    /// The containers read here, whose samples are coded whatever libsndfile calls them (FLAC's
    /// are `pcm` of their bit depth).
    static let containers: Set<Container> = [.mpeg, .flac, .ogg]

    /// The layout of the file seen through `cursor` (of `size` bytes) in `container`; nil for
    /// other containers and for headers that do not parse.
    static func read(_ cursor: FileCursor, size: Int64, container: Container) -> CompressedLayout? {
        switch container {
        case .mpeg: return mpegAudio(cursor, size: size)
        case .flac: return flac(cursor, size: size)
        case .ogg: return ogg(cursor, size: size)
        default: return nil
        }
    }

    /// `range` of the file (short at its end): through the cursor within the head, which opening
    /// the file has read, and beyond it by a read of just those bytes, so that a metadata block's or
    /// a tag's header does not bring a 1 MiB cache block in.
    private static func bytes(_ cursor: FileCursor, _ range: Range<Int64>) -> [UInt8]? {
        if range.upperBound <= Int64(CachedFile.headSize) { return try? cursor.bytes(in: range) }
        let end = min(range.upperBound, cursor.file.size)
        guard end > range.lowerBound else { return [] }
        return try? cursor.file.reader.readBlocking(range.lowerBound..<end).array
    }

    // MARK: - Tags around the audio

    /// The bytes of the ID3v2 tags at `offset` (several may follow one another), 0 without one.
    static func id3v2Bytes(_ cursor: FileCursor, at offset: Int64) -> Int64 {
        var end = offset
        while let header = bytes(cursor, end..<end + 10), header.count == 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33,
            header[3] != 0xFF, header[4] != 0xFF, header[6..<10].allSatisfy({ $0 < 0x80 })
        {
            // The size is "syncsafe": seven bits a byte; a footer (flag 0x10) adds ten bytes.
            let size = header[6..<10].reduce(Int64(0)) { $0 << 7 | Int64($1) }
            end += 10 + size + (header[5] & 0x10 != 0 ? 10 : 0)
        }
        return end - offset
    }

    /// The bytes of the ID3v1 tag (128 bytes, `TAG`) and APEv2 tag (its `APETAGEX` footer gives
    /// its size) at the end of a file of `size` bytes; 0 without them.
    static func trailingTagBytes(_ cursor: FileCursor, size: Int64) -> Int64 {
        guard size >= 160, let tail = bytes(cursor, size - 160..<size), tail.count == 160 else { return 0 }
        let view = ByteView(tail)
        var tags: Int64 = Array(tail[32..<35]) == Array("TAG".utf8) ? 128 : 0
        // The APE footer ends the file, or ends just before an ID3v1 tag.
        let footer = 160 - Int(tags) - 32
        if footer >= 0, Array(tail[footer..<footer + 8]) == Array("APETAGEX".utf8), let length = view.uint32(at: footer + 12),
            let flags = view.uint32(at: footer + 20)
        {
            // The size counts the items and the footer; a header, when flag bit 31 says so, 32 more.
            let apeBytes = Int64(length) + (flags & 0x8000_0000 != 0 ? 32 : 0)
            if apeBytes <= size - tags { tags += apeBytes }
        }
        return tags
    }

    // MARK: - MPEG audio

    /// One MPEG audio frame header.
    struct MPEGFrame: Equatable {
        var bitRate: Int
        var sampleRate: Int
        /// MPEG-1 (1), MPEG-2 (2) or MPEG-2.5 (25).
        var version: Int
        var layer: Int
        var mono: Bool
        var padding: Bool

        /// The four header bytes, or nil for a reserved value, a free-format bit rate or no sync.
        init?(_ bytes: ArraySlice<UInt8>) {
            guard bytes.count >= 4 else { return nil }
            let b = Array(bytes.prefix(4))
            guard b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
            let versionBits = Int(b[1] >> 3 & 3), layerBits = Int(b[1] >> 1 & 3)
            let rateIndex = Int(b[2] >> 2 & 3), bitRateIndex = Int(b[2] >> 4)
            guard versionBits != 1, layerBits != 0, rateIndex != 3, bitRateIndex != 0, bitRateIndex != 15 else { return nil }
            version = [25, 0, 2, 1][versionBits]
            layer = 4 - layerBits
            let kilobits: [Int]
            switch (version == 1, layer) {
            case (true, 1): kilobits = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
            case (true, 2): kilobits = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
            case (true, _): kilobits = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
            case (false, 1): kilobits = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
            case (false, _): kilobits = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
            }
            bitRate = kilobits[bitRateIndex] * 1000
            sampleRate = [44100, 48000, 32000][rateIndex] / (version == 1 ? 1 : version == 2 ? 2 : 4)
            padding = b[2] & 2 != 0
            mono = b[3] >> 6 == 3
        }

        /// Samples per channel in the frame.
        var samples: Int { layer == 1 ? 384 : layer == 3 && version != 1 ? 576 : 1152 }

        /// The frame's length in bytes, header included.
        var length: Int {
            if layer == 1 { return (12 * bitRate / sampleRate + (padding ? 1 : 0)) * 4 }
            return samples / 8 * bitRate / sampleRate + (padding ? 1 : 0)
        }

        /// Where a Layer III frame's Xing or Info tag starts: after the header and side information.
        var xingOffset: Int { 4 + (version == 1 ? (mono ? 17 : 32) : (mono ? 9 : 17)) }
    }

    /// The encoder's table in an MPEG audio file's first frame (that frame is not audio).
    enum MPEGFrameTable: Equatable {
        /// LAME's and others' for VBR.
        case xing
        /// LAME's for CBR.
        case info
        /// Fraunhofer's.
        case vbri
    }

    /// The table in the first frame (at `offset` of `view`), where there is one.
    static func frameTable(_ view: ByteView, at offset: Int, _ frame: MPEGFrame) -> MPEGFrameTable? {
        let xing = view.tag(at: offset + frame.xingOffset)
        if frame.layer == 3, xing == "Xing" || xing == "Info", view.uint32(at: offset + frame.xingOffset + 4, bigEndian: true) != nil {
            return xing == "Xing" ? .xing : .info
        }
        if view.tag(at: offset + 36) == "VBRI", view.uint16(at: offset + 40, bigEndian: true) == 1 { return .vbri }
        return nil
    }

    /// Whether the first frame's table states the stream's frames, which decoders then take as
    /// its length (a Xing or Info tag may leave them out: its flags' bit 0); where none does, they
    /// estimate it (`untabledMPEGSamples`).
    static func frameTableStatesFrames(_ view: ByteView, at offset: Int, _ frame: MPEGFrame) -> Bool {
        switch frameTable(view, at: offset, frame) {
        case .xing, .info: (view.uint32(at: offset + frame.xingOffset + 4, bigEndian: true) ?? 0) & 1 != 0
        case .vbri: (view.uint32(at: offset + 50, bigEndian: true) ?? 0) > 0
        case nil: false
        }
    }

    /// How far past the ID3v2 tags the first frame is searched for (encoders' padding, junk).
    private static let mpegSyncSearch = 65536

    /// The first MPEG audio frame after the ID3v2 tags: where the tags end, the bytes read from
    /// there, and the frame's offset in them and header. The first header whose next frame starts
    /// with a header too (a lone 0xFFE… is not a frame).
    static func firstMPEGFrame(_ cursor: FileCursor, size: Int64) -> (tagEnd: Int64, window: [UInt8], offset: Int, frame: MPEGFrame)? {
        let tagEnd = id3v2Bytes(cursor, at: 0)
        guard let window = try? cursor.bytes(in: tagEnd..<min(size, tagEnd + Int64(mpegSyncSearch) + 4096)) else { return nil }
        var index = 0
        while index + 4 <= min(window.count, mpegSyncSearch + 4) {
            if let frame = MPEGFrame(window[index...]) {
                let next = index + frame.length
                if next + 4 > window.count || MPEGFrame(window[next...]).map({ $0.layer == frame.layer && $0.sampleRate == frame.sampleRate }) == true {
                    return (tagEnd, window, index, frame)
                }
            }
            index += 1
        }
        return nil
    }

    /// An MP3 (or MP2): the audio is the frames after the ID3v2 tags and after the Xing, Info or
    /// VBRI frame (an encoder's table of contents, not audio), up to the ID3v1 and APE tags. The
    /// stated bit rate is FFmpeg's: the average a Xing (VBR) or VBRI tag gives, bytes × 8 over its
    /// frames' duration, and otherwise (Info, a LAME CBR file; no tag) the first frame's.
    private static func mpegAudio(_ cursor: FileCursor, size: Int64) -> CompressedLayout? {
        guard let (tagEnd, window, offset, frame) = firstMPEGFrame(cursor, size: size) else { return nil }
        let view = ByteView(window)
        var audioStart = tagEnd + Int64(offset)
        var stated = Double(frame.bitRate)
        let table = frameTable(view, at: offset, frame)
        if table == .xing || table == .info, let flags = view.uint32(at: offset + frame.xingOffset + 4, bigEndian: true) {
            let frames = flags & 1 != 0 ? view.uint32(at: offset + frame.xingOffset + 8, bigEndian: true) : nil
            let bytes = flags & 2 != 0 ? view.uint32(at: offset + frame.xingOffset + (flags & 1 != 0 ? 12 : 8), bigEndian: true) : nil
            audioStart += Int64(frame.length)
            if table == .xing, let frames, let bytes, frames > 0, bytes > 0 {
                stated = Double(bytes) * 8 * Double(frame.sampleRate) / (Double(frames) * Double(frame.samples))
            } else if let next = MPEGFrame(window[min(window.count, offset + frame.length)...]) {
                stated = Double(next.bitRate)
            }
        } else if table == .vbri {
            audioStart += Int64(frame.length)
            if let bytes = view.uint32(at: offset + 46, bigEndian: true), let frames = view.uint32(at: offset + 50, bigEndian: true), frames > 0, bytes > 0 {
                stated = Double(bytes) * 8 * Double(frame.sampleRate) / (Double(frames) * Double(frame.samples))
            }
        }
        let audioEnd = size - trailingTagBytes(cursor, size: size)
        guard audioEnd > audioStart else { return nil }
        return CompressedLayout(audio: audioStart..<audioEnd, statedBitRate: stated)
    }

    // MARK: - FLAC

    /// A native FLAC file: the frames after `fLaC` and its metadata blocks (STREAMINFO, seek table,
    /// tags, pictures, padding), up to an ID3v1 or APE tag. FLAC states no bit rate.
    private static func flac(_ cursor: FileCursor, size: Int64) -> CompressedLayout? {
        var offset = id3v2Bytes(cursor, at: 0)
        guard let magic = bytes(cursor, offset..<offset + 4), magic == Array("fLaC".utf8) else { return nil }
        offset += 4
        for block in 0...metadataBlockLimit {
            guard block < metadataBlockLimit, let header = bytes(cursor, offset..<offset + 4), header.count == 4 else { return nil }
            offset += 4 + (Int64(header[1]) << 16 | Int64(header[2]) << 8 | Int64(header[3]))
            if header[0] & 0x80 != 0 { break }
        }
        let audioEnd = size - trailingTagBytes(cursor, size: size)
        guard audioEnd > offset else { return nil }
        return CompressedLayout(audio: offset..<audioEnd, statedBitRate: nil)
    }

    /// More metadata blocks than any encoder or tagger writes: a file of empty blocks is not walked
    /// through to its end four bytes at a time.
    private static let metadataBlockLimit = 4096

    // MARK: - Ogg

    /// Pages of codec headers walked at most: a Vorbis comment with 10 MiB of cover art fills some
    /// 2 500 pages of ffmpeg's; a stream whose headers never end is not walked through.
    private static let headerPageLimit = 65536

    /// An Ogg file of one logical stream: the pages after the one on which the codec's header
    /// packets end (Vorbis 3, Opus 2, FLAC 1 + its count, Speex 2 + its count), to the end. Vorbis
    /// states its nominal bit rate in its identification header; Opus and FLAC state none. A file
    /// whose header pages belong to several streams (a video, a Skeleton track) gets nil.
    private static func ogg(_ cursor: FileCursor, size: Int64) -> CompressedLayout? {
        var offset: Int64 = 0
        var serial: UInt32?
        var headerPackets: Int?
        var packetsEnded = 0
        var stated: Double?
        for _ in 0..<headerPageLimit where offset < size {
            guard let header = try? cursor.bytes(in: offset..<offset + 27), header.count == 27, header[0..<4] == ArraySlice("OggS".utf8) else { return nil }
            let view = ByteView(header)
            guard let pageSerial = view.uint32(at: 14), serial == nil || serial == pageSerial else { return nil }
            serial = pageSerial
            let segments = Int(header[26])
            guard let lacing = try? cursor.bytes(in: offset + 27..<offset + 27 + Int64(segments)), lacing.count == segments else { return nil }
            let bodyStart = offset + 27 + Int64(segments)
            if headerPackets == nil {
                // The first packet names the codec and, for some, how many header packets follow.
                guard let first = try? cursor.bytes(in: bodyStart..<bodyStart + 64) else { return nil }
                let packet = ByteView(first)
                if first.starts(with: [0x01] + Array("vorbis".utf8)) {
                    headerPackets = 3
                    if let nominal = packet.uint32(at: 20).map({ Int32(bitPattern: $0) }), nominal > 0 { stated = Double(nominal) }
                } else if first.starts(with: Array("OpusHead".utf8)) {
                    headerPackets = 2
                } else if first.starts(with: [0x7F] + Array("FLAC".utf8)), let more = packet.uint16(at: 7, bigEndian: true) {
                    headerPackets = 1 + Int(more)
                } else if first.starts(with: Array("Speex   ".utf8)), let more = packet.uint32(at: 68) {
                    headerPackets = 2 + Int(more)
                } else {
                    return nil
                }
            }
            packetsEnded += lacing.filter { $0 < 255 }.count
            offset = bodyStart + lacing.reduce(Int64(0)) { $0 + Int64($1) }
            if let headerPackets, packetsEnded >= headerPackets {
                // Audio begins on a fresh page (Vorbis I §A.2, RFC 7845 §3).
                guard size > offset else { return nil }
                return CompressedLayout(audio: offset..<size, statedBitRate: stated)
            }
        }
        return nil
    }
}
