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
        layout(dataBytes: dataBytes).bytes
    }

    /// The numeric fields of `header(dataBytes:)`, each where the specification puts it.
    public func headerFields(dataBytes: UInt64) -> [HeaderField] {
        layout(dataBytes: dataBytes).fields
    }

    private func layout(dataBytes: UInt64) -> HeaderWriter {
        switch container {
        case .wav: return riffHeader(dataBytes: dataBytes, extensible: false)
        case .wavExtensible: return riffHeader(dataBytes: dataBytes, extensible: true)
        case .rf64: return rf64Header(dataBytes: dataBytes)
        case .w64: return w64Header(dataBytes: dataBytes)
        case .aiff, .aifcSowt: return aiffHeader(dataBytes: dataBytes)
        }
    }

    private var formatTag: UInt16 { encoding.isFloat ? 3 : 1 }

    /// WAVEFORMATEX (and WAVEFORMATEXTENSIBLE), as in RIFF WAVE, RF64 and Wave64.
    private func fmtBody(extensible: Bool) -> HeaderWriter {
        var body = HeaderWriter(bigEndian: false)
        body.u16(extensible ? 0xFFFE : formatTag, "fmt format tag")
        body.u16(UInt16(channels), "fmt channels")
        body.u32(UInt32(sampleRate), "fmt sample rate")
        body.u32(UInt32(truncatingIfNeeded: sampleRate * bytesPerFrame), "fmt byte rate")  // readers ignore it; at 2³¹ Hz it overflows
        body.u16(UInt16(bytesPerFrame), "fmt block align")
        body.u16(UInt16(encoding.bits), "fmt bits per sample")
        if extensible {
            body.u16(22, "fmt extension size")
            body.u16(UInt16(encoding.bits), "fmt valid bits")
            body.u32(channelMask ?? (channels == 1 ? 0x4 : (channels == 2 ? 0x3 : 0)), "fmt channel mask")
            body.u16(formatTag, "fmt sub-format")
            body.bytes += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if encoding.isFloat {
            body.u16(0, "fmt extension size")
        }
        return body
    }

    private func riffHeader(dataBytes: UInt64, extensible: Bool) -> HeaderWriter {
        let fmt = fmtBody(extensible: extensible)
        var out = HeaderWriter(bigEndian: false)
        out.tag("RIFF")
        out.u32(UInt32(truncatingIfNeeded: 4 + 8 + UInt64(fmt.bytes.count) + 8 + dataBytes + dataBytes % 2), "RIFF size")
        out.tag("WAVE")
        out.tag("fmt ")
        out.u32(UInt32(fmt.bytes.count), "fmt size")
        out.append(fmt)
        out.tag("data")
        out.u32(UInt32(truncatingIfNeeded: dataBytes), "data size")
        return out
    }

    private func rf64Header(dataBytes: UInt64) -> HeaderWriter {
        let fmt = fmtBody(extensible: channelMask != nil)
        var out = HeaderWriter(bigEndian: false)
        out.tag("RF64")
        out.u32(0xFFFF_FFFF, "RF64 size")
        out.tag("WAVE")
        out.tag("ds64")
        out.u32(28, "ds64 size")
        out.u64(4 + 36 + 8 + UInt64(fmt.bytes.count) + 8 + dataBytes + dataBytes % 2, "ds64 RIFF size")
        out.u64(dataBytes, "ds64 data size")
        out.u64(dataBytes / UInt64(bytesPerFrame), "ds64 sample count")
        out.u32(0, "ds64 table length")  // no table entries
        out.tag("fmt ")
        out.u32(UInt32(fmt.bytes.count), "fmt size")
        out.append(fmt)
        out.tag("data")
        out.u32(0xFFFF_FFFF, "data size")
        return out
    }

    private static let w64GUIDTail: [UInt8] = [0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A]

    private func w64Header(dataBytes: UInt64) -> HeaderWriter {
        let fmt = fmtBody(extensible: channelMask != nil)
        let fmtChunk = 24 + UInt64(fmt.bytes.count)
        let fmtPadded = (fmtChunk + 7) / 8 * 8
        var out = HeaderWriter(bigEndian: false)
        out.bytes += [0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11, 0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00]
        out.u64(40 + fmtPadded + 24 + dataBytes, "riff size")
        out.bytes += Array("wave".utf8) + Self.w64GUIDTail
        out.bytes += Array("fmt ".utf8) + Self.w64GUIDTail
        out.u64(fmtChunk, "fmt size")
        out.append(fmt)
        out.bytes += [UInt8](repeating: 0, count: Int(fmtPadded - fmtChunk))
        out.bytes += Array("data".utf8) + Self.w64GUIDTail
        out.u64(24 + dataBytes, "data size")
        return out
    }

    private func aiffHeader(dataBytes: UInt64) -> HeaderWriter {
        let isAIFC = container == .aifcSowt
        var comm = HeaderWriter(bigEndian: true)
        comm.u16(UInt16(channels), "COMM channels")
        comm.u32(UInt32(dataBytes / UInt64(bytesPerFrame)), "COMM frames")
        comm.u16(UInt16(encoding.bits), "COMM sample size")
        comm.extended(Double(sampleRate), "COMM sample rate")
        if isAIFC {
            comm.tag("sowt")
            comm.bytes += [0]  // empty Pascal string, padded to even length
            comm.bytes += [0]
        }
        var out = HeaderWriter(bigEndian: true)
        out.tag("FORM")
        let formSize = 4 + (isAIFC ? 12 : 0) + 8 + UInt64(comm.bytes.count) + 8 + 8 + dataBytes + dataBytes % 2
        out.u32(UInt32(truncatingIfNeeded: formSize), "FORM size")
        out.tag(isAIFC ? "AIFC" : "AIFF")
        if isAIFC {
            out.tag("FVER")
            out.u32(4, "FVER size")
            out.u32(0xA280_5140, "FVER timestamp")
        }
        out.tag("COMM")
        out.u32(UInt32(comm.bytes.count), "COMM size")
        out.append(comm)
        out.tag("SSND")
        out.u32(UInt32(truncatingIfNeeded: 8 + dataBytes), "SSND size")
        out.u32(0, "SSND offset")
        out.u32(0, "SSND block size")
        return out
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
        return ExtendedFloat(exponent: UInt16(exponent), mantissa: mantissa).bytes
    }
}

/// A header under construction, recording where each numeric field goes.
private struct HeaderWriter {
    let bigEndian: Bool
    var bytes: [UInt8] = []
    var fields: [HeaderField] = []

    init(bigEndian: Bool) {
        self.bigEndian = bigEndian
    }

    mutating func tag(_ text: String) { bytes += Array(text.utf8) }
    mutating func u16(_ value: UInt16, _ name: String) { integer(UInt64(value), width: 2, name) }
    mutating func u32(_ value: UInt32, _ name: String) { integer(UInt64(value), width: 4, name) }
    mutating func u64(_ value: UInt64, _ name: String) { integer(value, width: 8, name) }

    mutating func extended(_ value: Double, _ name: String) {
        fields.append(HeaderField(name: name, offset: bytes.count, width: 10, bigEndian: true, isExtended: true))
        bytes += PCMFileBuilder.extended(value)
    }

    /// Appends `other`, with its fields moved to where its bytes land.
    mutating func append(_ other: HeaderWriter) {
        fields += other.fields.map { field in
            var moved = field
            moved.offset += bytes.count
            return moved
        }
        bytes += other.bytes
    }

    private mutating func integer(_ value: UInt64, width: Int, _ name: String) {
        fields.append(HeaderField(name: name, offset: bytes.count, width: width, bigEndian: bigEndian, isExtended: false))
        bytes += HeaderField.encode(value, width: width, bigEndian: bigEndian)
    }
}

private struct LE {
    var bytes: [UInt8] = []
    mutating func tag(_ text: String) { bytes += Array(text.utf8) }
    mutating func u32(_ value: UInt32) { for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
}
