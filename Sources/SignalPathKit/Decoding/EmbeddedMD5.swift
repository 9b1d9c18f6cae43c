/// The MD5 of its audio that a file carries: a FLAC's STREAMINFO block (the encoder's MD5 of the
/// decoded samples; all zeros when the encoder did not compute it) or a BWF `MD5 ` chunk (16
/// bytes, the MD5 of the data chunk's samples, as BWF MetaEdit writes it). Both are the audio MD5
/// `AudioMD5` computes, except for 8-bit WAV, whose data chunk holds unsigned bytes.
public struct EmbeddedMD5: Sendable, Equatable {
    public enum Source: String, Sendable {
        case flacStreamInfo = "flac_streaminfo"
        case bwfChunk = "bwf_md5_chunk"
    }

    public var source: Source
    /// Lowercase hexadecimal; nil for a FLAC whose encoder left the MD5 unset (all zeros).
    public var value: String?

    /// What `file` carries, or nil where it carries none (or is a stream, whose header has gone by).
    static func read(_ file: AudioFile) -> EmbeddedMD5? {
        guard let source = file.source else { return nil }
        let cursor = FileCursor(file: source, readAheadBlocks: 0)
        switch file.format.container {
        case .flac: return flacStreamInfo(cursor)
        case .wav, .wavex, .rf64: return waveChunk(cursor, size: source.size)
        default: return nil
        }
    }

    /// STREAMINFO is the first metadata block after `fLaC` (after an ID3v2 tag, where a tagger put
    /// one); its MD5 is the last 16 of its 34 bytes.
    private static func flacStreamInfo(_ cursor: FileCursor) -> EmbeddedMD5? {
        var offset: Int64 = 0
        if let id3 = try? cursor.bytes(in: 0..<10), id3.count == 10, id3[0..<3] == ArraySlice("ID3".utf8) {
            // A syncsafe size, 7 bits per byte, plus the footer when the flags say there is one.
            let size = id3[6..<10].reduce(Int64(0)) { $0 << 7 | Int64($1 & 0x7F) }
            offset = 10 + size + (id3[5] & 0x10 != 0 ? 10 : 0)
        }
        guard let head = try? cursor.bytes(in: offset..<offset + 8 + 34), head.count == 42, head[0..<4] == ArraySlice("fLaC".utf8),
            head[4] & 0x7F == 0
        else { return nil }
        let md5 = head[26..<42]
        return EmbeddedMD5(source: .flacStreamInfo, value: md5.allSatisfy { $0 == 0 } ? nil : MessageDigest.hexadecimal(md5))
    }

    /// The chunks of a RIFF, RF64 or BW64 file, looked through for `MD5 ` (before or after the data).
    private static func waveChunk(_ cursor: FileCursor, size: Int64) -> EmbeddedMD5? {
        guard let head = try? cursor.bytes(in: 0..<12), head.count == 12, head[8..<12] == ArraySlice("WAVE".utf8) else { return nil }
        var dataSize64: Int64?
        var position: Int64 = 12
        // As many chunks as a header parser walks (`PCMLayout`).
        for _ in 0..<256 where position + 8 <= size {
            guard let header = try? cursor.bytes(in: position..<position + 8), header.count == 8 else { return nil }
            let id = String(decoding: header[0..<4], as: UTF8.self)
            var chunkSize = Int64(header[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let body = position + 8
            switch id {
            case "ds64":
                if let sizes = try? cursor.bytes(in: body + 8..<body + 16), sizes.count == 8 {
                    dataSize64 = Int64(bitPattern: sizes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
                }
            case "data" where chunkSize == 0xFFFF_FFFF:
                guard let dataSize64 else { return nil }
                chunkSize = dataSize64
            case "MD5 " where chunkSize >= 16:
                guard let md5 = try? cursor.bytes(in: body..<body + 16), md5.count == 16 else { return nil }
                return EmbeddedMD5(source: .bwfChunk, value: MessageDigest.hexadecimal(md5))
            default:
                break
            }
            position = body + chunkSize + (chunkSize & 1)
        }
        return nil
    }
}
