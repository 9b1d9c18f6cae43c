/// Writes uncompressed audio files byte by byte, for tests.
///
/// Deliberately independent of the code under test: headers are laid out here from the format
/// specifications (Microsoft RIFF/WAVE, EBU Tech 3306 RF64, Sony Wave64, Apple AIFF/AIFF-C), so a
/// decoder that agrees with these files agrees with the specifications, not with itself.
public struct PCMFileBuilder: Sendable {
    public enum Container: Sendable, CaseIterable {
        case wav, wavExtensible, rf64, w64, aiff, aifcSowt
    }

    public enum Encoding: Sendable, CaseIterable {
        case unsigned8, signed8, signed16, signed24, signed32, float32, float64

        public var bytesPerSample: Int {
            switch self {
            case .unsigned8, .signed8: return 1
            case .signed16: return 2
            case .signed24: return 3
            case .signed32, .float32: return 4
            case .float64: return 8
            }
        }

        public var isFloat: Bool { self == .float32 || self == .float64 }
        var bits: Int { bytesPerSample * 8 }
    }

    public var container: Container
    public var encoding: Encoding
    public var channels: Int
    public var sampleRate: Int
    /// The WAVE_FORMAT_EXTENSIBLE `dwChannelMask` (bit 0 front left, 1 front right, 2 front centre,
    /// 3 LFE, 4 back left, 5 back right, 6 front left of centre, 7 front right of centre, 8 back
    /// centre, 9 side left, 10 side right, 11 top centre, 12–14 top front left/centre/right,
    /// 15–17 top back left/centre/right). Given, it makes RF64 and Wave64 headers extensible too;
    /// nil: 0x4 for mono, 0x3 for stereo, 0 (no positions) otherwise, in `.wavExtensible` only.
    public var channelMask: UInt32?

    public init(container: Container, encoding: Encoding, channels: Int, sampleRate: Int, channelMask: UInt32? = nil) {
        self.container = container
        self.encoding = encoding
        self.channels = channels
        self.sampleRate = sampleRate
        self.channelMask = channelMask
    }

    /// Whether the container can hold the encoding (WAV has no signed 8-bit, AIFF no unsigned).
    public var isValid: Bool {
        switch container {
        case .wav, .wavExtensible, .rf64, .w64: return encoding != .signed8
        case .aiff: return encoding != .unsigned8 && !encoding.isFloat
        case .aifcSowt: return [.signed16, .signed24, .signed32].contains(encoding)
        }
    }

    var bigEndian: Bool { container == .aiff }
    public var bytesPerFrame: Int { encoding.bytesPerSample * channels }

    // MARK: Samples

    /// The integer code a sample value quantizes to (rounded, clamped to the encoding's range).
    public func code(for value: Double) -> Int64 {
        let full = Double(Int64(1) << (encoding.bits - 1))
        let code = Int64((value * full).rounded())
        return min(max(code, -Int64(full)), Int64(full) - 1)
    }

    /// What a decoder must return for `value`: the code over full scale (2^(bits−1)), or the float itself.
    public func expectedSample(for value: Double) -> Float {
        switch encoding {
        case .float32: return Float(value)
        case .float64: return Float(value)
        default: return Float(Double(code(for: value)) / Double(Int64(1) << (encoding.bits - 1)))
        }
    }

    /// The encoded bytes of interleaved samples.
    public func sampleBytes(_ samples: [Double]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * encoding.bytesPerSample)
        for value in samples { appendSample(value, to: &bytes) }
        return bytes
    }

    /// Encoded bytes with arbitrary bit patterns (random data for equality tests).
    public func appendRaw(_ pattern: UInt64, to bytes: inout [UInt8]) {
        appendInteger(pattern, width: encoding.bytesPerSample, to: &bytes)
    }

    private func appendSample(_ value: Double, to bytes: inout [UInt8]) {
        switch encoding {
        case .float32: appendInteger(UInt64(Float(value).bitPattern), width: 4, to: &bytes)
        case .float64: appendInteger(value.bitPattern, width: 8, to: &bytes)
        case .unsigned8: bytes.append(UInt8(code(for: value) + 128))
        default: appendInteger(UInt64(bitPattern: code(for: value)), width: encoding.bytesPerSample, to: &bytes)
        }
    }

    private func appendInteger(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for index in 0..<width {
            let shift = bigEndian ? (width - 1 - index) * 8 : index * 8
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    // MARK: Files

    /// A complete file holding `samples` (interleaved values in [-1, 1)).
    public func file(samples: [Double]) -> [UInt8] {
        let data = sampleBytes(samples)
        return header(dataBytes: UInt64(data.count)) + data + (data.count % 2 == 1 && container != .w64 ? [0] : [])
    }

    /// A RIFF `LIST`/`INFO` chunk with the given tags (`INAM` title, `IART` artist, `ICMT` comment, …),
    /// to append after a WAV file's data. The RIFF size in the header is not updated; libsndfile,
    /// like most readers, reads chunks up to the end of the file.
    public static func infoChunk(_ tags: [(String, String)]) -> [UInt8] {
        var body = LE()
        body.tag("INFO")
        for (id, text) in tags {
            var value = Array(text.utf8) + [0]
            if value.count % 2 == 1 { value.append(0) }
            body.tag(id)
            body.u32(UInt32(value.count))
            body.bytes += value
        }
        var out = LE()
        out.tag("LIST")
        out.u32(UInt32(body.bytes.count))
        return out.bytes + body.bytes
    }

    /// A complete file whose sample data is `data`, already encoded.
    public func file(encodedData data: [UInt8]) -> [UInt8] {
        header(dataBytes: UInt64(data.count)) + data + (data.count % 2 == 1 && container != .w64 ? [0] : [])
    }

    /// The header for `dataBytes` bytes of samples, which follow it directly.
    public func header(dataBytes: UInt64) -> [UInt8] {
        switch container {
        case .wav: return riffHeader(dataBytes: dataBytes, extensible: false)
        case .wavExtensible: return riffHeader(dataBytes: dataBytes, extensible: true)
        case .rf64: return rf64Header(dataBytes: dataBytes)
        case .w64: return w64Header(dataBytes: dataBytes)
        case .aiff, .aifcSowt: return aiffHeader(dataBytes: dataBytes)
        }
    }

    private var formatTag: UInt16 { encoding.isFloat ? 3 : 1 }

    private func fmtBody(extensible: Bool) -> [UInt8] {
        var body = LE()
        body.u16(extensible ? 0xFFFE : formatTag)
        body.u16(UInt16(channels))
        body.u32(UInt32(sampleRate))
        body.u32(UInt32(sampleRate * bytesPerFrame))
        body.u16(UInt16(bytesPerFrame))
        body.u16(UInt16(encoding.bits))
        if extensible {
            body.u16(22)
            body.u16(UInt16(encoding.bits))
            body.u32(channelMask ?? (channels == 1 ? 0x4 : (channels == 2 ? 0x3 : 0)))
            body.u16(formatTag)
            body.bytes += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if encoding.isFloat {
            body.u16(0)
        }
        return body.bytes
    }

    private func riffHeader(dataBytes: UInt64, extensible: Bool) -> [UInt8] {
        let fmt = fmtBody(extensible: extensible)
        var out = LE()
        out.tag("RIFF")
        out.u32(UInt32(truncatingIfNeeded: 4 + 8 + UInt64(fmt.count) + 8 + dataBytes + dataBytes % 2))
        out.tag("WAVE")
        out.tag("fmt ")
        out.u32(UInt32(fmt.count))
        out.bytes += fmt
        out.tag("data")
        out.u32(UInt32(truncatingIfNeeded: dataBytes))
        return out.bytes
    }

    private func rf64Header(dataBytes: UInt64) -> [UInt8] {
        let fmt = fmtBody(extensible: channelMask != nil)
        var out = LE()
        out.tag("RF64")
        out.u32(0xFFFF_FFFF)
        out.tag("WAVE")
        out.tag("ds64")
        out.u32(28)
        out.u64(4 + 36 + 8 + UInt64(fmt.count) + 8 + dataBytes + dataBytes % 2)  // RIFF size
        out.u64(dataBytes)
        out.u64(dataBytes / UInt64(bytesPerFrame))  // sample count
        out.u32(0)  // no table entries
        out.tag("fmt ")
        out.u32(UInt32(fmt.count))
        out.bytes += fmt
        out.tag("data")
        out.u32(0xFFFF_FFFF)
        return out.bytes
    }

    private static let w64GUIDTail: [UInt8] = [0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A]

    private func w64Header(dataBytes: UInt64) -> [UInt8] {
        let fmt = fmtBody(extensible: channelMask != nil)
        let fmtChunk = 24 + UInt64(fmt.count)
        let fmtPadded = (fmtChunk + 7) / 8 * 8
        var out = LE()
        out.bytes += [0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11, 0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00]
        out.u64(40 + fmtPadded + 24 + dataBytes)
        out.bytes += Array("wave".utf8) + Self.w64GUIDTail
        out.bytes += Array("fmt ".utf8) + Self.w64GUIDTail
        out.u64(fmtChunk)
        out.bytes += fmt + [UInt8](repeating: 0, count: Int(fmtPadded - fmtChunk))
        out.bytes += Array("data".utf8) + Self.w64GUIDTail
        out.u64(24 + dataBytes)
        return out.bytes
    }

    private func aiffHeader(dataBytes: UInt64) -> [UInt8] {
        let isAIFC = container == .aifcSowt
        var comm = BE()
        comm.u16(UInt16(channels))
        comm.u32(UInt32(dataBytes / UInt64(bytesPerFrame)))
        comm.u16(UInt16(encoding.bits))
        comm.bytes += Self.extended(Double(sampleRate))
        if isAIFC {
            comm.tag("sowt")
            comm.bytes += [0]  // empty Pascal string, padded to even length
            comm.bytes += [0]
        }
        var out = BE()
        out.tag("FORM")
        let formSize = 4 + (isAIFC ? 12 : 0) + 8 + UInt64(comm.bytes.count) + 8 + 8 + dataBytes + dataBytes % 2
        out.u32(UInt32(truncatingIfNeeded: formSize))
        out.tag(isAIFC ? "AIFC" : "AIFF")
        if isAIFC {
            out.tag("FVER")
            out.u32(4)
            out.u32(0xA280_5140)
        }
        out.tag("COMM")
        out.u32(UInt32(comm.bytes.count))
        out.bytes += comm.bytes
        out.tag("SSND")
        out.u32(UInt32(truncatingIfNeeded: 8 + dataBytes))
        out.u32(0)  // offset
        out.u32(0)  // block size
        return out.bytes
    }

    /// 80-bit IEEE 754 extended precision, big-endian, as AIFF stores its sample rate.
    static func extended(_ value: Double) -> [UInt8] {
        precondition(value > 0 && value == value.rounded())
        var mantissa = UInt64(value)
        var exponent = 16383 + 63
        while mantissa & (1 << 63) == 0 {
            mantissa <<= 1
            exponent -= 1
        }
        var out = BE()
        out.u16(UInt16(exponent))
        out.u64(mantissa)
        return out.bytes
    }
}

private struct LE {
    var bytes: [UInt8] = []
    mutating func tag(_ text: String) { bytes += Array(text.utf8) }
    mutating func u16(_ value: UInt16) { for i in 0..<2 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
    mutating func u32(_ value: UInt32) { for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
    mutating func u64(_ value: UInt64) { for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
}

private struct BE {
    var bytes: [UInt8] = []
    mutating func tag(_ text: String) { bytes += Array(text.utf8) }
    mutating func u16(_ value: UInt16) { for i in (0..<2).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
    mutating func u32(_ value: UInt32) { for i in (0..<4).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
    mutating func u64(_ value: UInt64) { for i in (0..<8).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
}
