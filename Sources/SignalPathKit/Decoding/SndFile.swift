import CSndFile
/// An open libsndfile decoder: the only Swift file that talks to libsndfile.
///
/// It owns the `SNDFILE*` (closed in `deinit`) and, for virtual I/O, the `FileCursor` that
/// libsndfile reads through, so the cursor outlives every callback. Everything it returns is a
/// Swift value; no C pointer leaves this file. Not thread-safe: one decoder per thread.
final class SndFile {
    private let library: SndFileLibrary
    private let handle: OpaquePointer
    /// Kept alive for libsndfile's callbacks, which receive it unretained as `user_data`.
    private let cursor: FileCursor
    let path: String
    let format: AudioFormat
    let metadata: [MetadataEntry]

    /// Opens a file seen through `cursor` with libsndfile's virtual I/O.
    init(cursor: FileCursor, path: String) throws(SignalPathError) {
        let library = try SndFileLibrary.library()
        var virtualIO = SF_VIRTUAL_IO(
            get_filelen: sndFileLength, seek: sndFileSeek, read: sndFileRead, write: sndFileWrite, tell: sndFileTell)
        var info = SF_INFO()
        let userData = Unmanaged.passUnretained(cursor).toOpaque()
        let opened = SndFile.openLock.withLock { () -> Result<OpaquePointer, SignalPathError> in
            if let handle = library.openVirtual(&virtualIO, Int32(SFM_READ), &info, userData) {
                return .success(handle)
            }
            // A read error met while parsing the header explains the failure better than libsndfile.
            return .failure(cursor.error ?? SndFile.openError(path: path, cursor: cursor, library: library))
        }
        self.library = library
        self.handle = try opened.get()
        self.cursor = cursor
        self.path = path
        self.format = try SndFile.format(of: info, channelLayout: SndFile.channelLayout(of: handle, info: info, library: library), path: path)
        self.metadata = SndFile.metadata(of: handle, library: library)
    }

    deinit {
        _ = library.close(handle)
    }

    /// Moves to `frame`; returns false when libsndfile cannot seek there.
    func seek(toFrame frame: Int64) -> Bool {
        library.seek(handle, frame, SEEK_SET) == frame
    }

    /// Decodes up to `frames` interleaved frames into the start of `buffer` (which holds at least
    /// `frames × channels` samples); returns the number decoded, 0 at the end.
    func read(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) throws(SignalPathError) -> Int {
        precondition(buffer.count >= frames * format.channels)
        let count = Int(library.readFramesFloat(handle, buffer.baseAddress!, sf_count_t(frames)))
        if count < frames {
            if let error = cursor.error { throw error }
            let code = library.error(handle)
            if code != 0 {
                throw SignalPathError.malformed(path: path, reason: SndFileLibrary.text(library.errorNumber(code)))
            }
        }
        return count
    }

    // MARK: - Opening

    /// libsndfile keeps the reason for a failed open in a global; opening under one lock keeps
    /// that reason paired with its file when several files are opened at once.
    private static let openLock = Lock()

    /// libsndfile's message for its internal `SFE_UNIMPLEMENTED`.
    private static let unimplementedEncoding = "File contains data in an unimplemented format"

    private static func openError(path: String, cursor: FileCursor, library: SndFileLibrary) -> SignalPathError {
        let code = library.error(nil)
        let detail = sanitizedReason(SndFileLibrary.text(library.strerror(nil)))
        switch Int(code) {
        case SF_ERR_UNRECOGNISED_FORMAT:
            // Say what it looks like when the first bytes tell (MP4, Matroska, ADTS, …).
            let reason = "not a recognised audio format"
            let leading = leadingBytes(cursor, count: ForeignFormat.prefixLength)
            // An empty input is the common case of "nothing came" (a terminal's Ctrl-D, a failed download).
            if leading.isEmpty && cursor.error == nil { return .unrecognizedFormat(path: path, reason: "empty (0 bytes)") }
            guard let foreign = ForeignFormat.sniff(leading) else {
                return .unrecognizedFormat(path: path, reason: reason)
            }
            return .unrecognizedFormat(path: path, reason: reason + ": " + foreign.explanation(path: path))
        case SF_ERR_UNSUPPORTED_ENCODING:
            return .unrecognizedFormat(path: path, reason: "unsupported encoding (\(detail))")
        case _ where detail.hasPrefix(unimplementedEncoding):
            // A container libsndfile reads with an encoding it does not (a FLAC of 20 bits): FFmpeg
            // may. Told by its message: its internal number is not part of the API and has moved.
            return .unrecognizedFormat(path: path, reason: "unsupported encoding (\(detail))")
        case SF_ERR_SYSTEM:
            return .io(path: path, errno: EIO, offset: nil)
        default:
            return .malformed(path: path, reason: detail)
        }
    }

    /// Up to `count` bytes from the start of the file (fewer when it is shorter or a read fails).
    private static func leadingBytes(_ cursor: FileCursor, count: Int) -> [UInt8] {
        cursor.seek(to: 0)
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { cursor.read(into: $0) }
        return Array(bytes.prefix(read))
    }

    /// libsndfile's messages span lines and end in full stops; errors here are one line.
    private static func sanitizedReason(_ message: String) -> String {
        let oneLine = message.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.joined(separator: " ")
        let trimmed = oneLine.hasSuffix(".") ? String(oneLine.dropLast()) : oneLine
        return trimmed.isEmpty ? "malformed file" : trimmed
    }

    // MARK: - Translating libsndfile's format codes

    private static func format(of info: SF_INFO, channelLayout: ChannelLayout?, path: String) throws(SignalPathError) -> AudioFormat {
        let channels = try AudioFormat.usableChannelCount(Int(info.channels), path: path)
        let sampleRate = try AudioFormat.usableSampleRate(Double(info.samplerate), path: path)
        let major = Int(info.format) & SF_FORMAT_TYPEMASK
        let subtype = Int(info.format) & SF_FORMAT_SUBMASK
        let frames: Int64? = info.frames >= 0 && info.frames < Int64.max / 2 ? info.frames : nil
        return AudioFormat(
            container: container(major: major),
            sampleFormat: sampleFormat(subtype: subtype),
            sampleRate: sampleRate,
            channels: channels,
            frames: frames, channelLayout: channelLayout)
    }

    /// The layout libsndfile read from the file (a WAVE_FORMAT_EXTENSIBLE mask, a CAF `chan`
    /// chunk), or nil when it has none. Not AIFF: libsndfile 1.2 hands back uninitialised entries
    /// for AIFF `CHAN` chunks (measured on files from ffmpeg), and a map with a code it does not
    /// define is not trusted either.
    private static func channelLayout(of handle: OpaquePointer, info: SF_INFO, library: SndFileLibrary) -> ChannelLayout? {
        let channels = Int(info.channels)
        guard channels > 0, Int(info.format) & SF_FORMAT_TYPEMASK != SF_FORMAT_AIFF else { return nil }
        var map = [Int32](repeating: 0, count: channels)
        let found = map.withUnsafeMutableBytes { bytes in
            library.command(handle, Int32(SFC_GET_CHANNEL_MAP_INFO), bytes.baseAddress, Int32(bytes.count))
        }
        guard found == SF_TRUE, map.allSatisfy({ (0..<Int32(SF_CHANNEL_MAP_MAX)).contains($0) }) else { return nil }
        return ChannelLayout(positions: map.map { positions[Int($0)] }, source: .channelMap)
    }

    /// libsndfile's channel-map codes as positions; Apple's plain Left/Right/Center/Mono are the
    /// front ones, and ambisonic B-format channels have no position.
    private static let positions: [Int: ChannelPosition] = [
        SF_CHANNEL_MAP_MONO: .frontCenter, SF_CHANNEL_MAP_LEFT: .frontLeft, SF_CHANNEL_MAP_RIGHT: .frontRight,
        SF_CHANNEL_MAP_CENTER: .frontCenter, SF_CHANNEL_MAP_FRONT_LEFT: .frontLeft, SF_CHANNEL_MAP_FRONT_RIGHT: .frontRight,
        SF_CHANNEL_MAP_FRONT_CENTER: .frontCenter, SF_CHANNEL_MAP_REAR_CENTER: .backCenter, SF_CHANNEL_MAP_REAR_LEFT: .backLeft,
        SF_CHANNEL_MAP_REAR_RIGHT: .backRight, SF_CHANNEL_MAP_LFE: .lowFrequency, SF_CHANNEL_MAP_FRONT_LEFT_OF_CENTER: .frontLeftOfCenter,
        SF_CHANNEL_MAP_FRONT_RIGHT_OF_CENTER: .frontRightOfCenter, SF_CHANNEL_MAP_SIDE_LEFT: .sideLeft, SF_CHANNEL_MAP_SIDE_RIGHT: .sideRight,
        SF_CHANNEL_MAP_TOP_CENTER: .topCenter, SF_CHANNEL_MAP_TOP_FRONT_LEFT: .topFrontLeft, SF_CHANNEL_MAP_TOP_FRONT_RIGHT: .topFrontRight,
        SF_CHANNEL_MAP_TOP_FRONT_CENTER: .topFrontCenter, SF_CHANNEL_MAP_TOP_REAR_LEFT: .topBackLeft,
        SF_CHANNEL_MAP_TOP_REAR_RIGHT: .topBackRight, SF_CHANNEL_MAP_TOP_REAR_CENTER: .topBackCenter,
    ]

    private static func container(major: Int) -> Container {
        let table: [Int: Container] = [  // a table, because a switch this long type-checks slowly
            SF_FORMAT_WAV: .wav, SF_FORMAT_WAVEX: .wavex,
            SF_FORMAT_RF64: .rf64, SF_FORMAT_W64: .w64,
            SF_FORMAT_AIFF: .aiff, SF_FORMAT_CAF: .caf,
            SF_FORMAT_FLAC: .flac, SF_FORMAT_OGG: .ogg,
            SF_FORMAT_MPEG: .mpeg, SF_FORMAT_AU: .au,
            SF_FORMAT_RAW: .raw, SF_FORMAT_PAF: .paf,
            SF_FORMAT_SVX: .svx, SF_FORMAT_NIST: .nist,
            SF_FORMAT_VOC: .voc, SF_FORMAT_IRCAM: .ircam,
            SF_FORMAT_MAT4: .mat4, SF_FORMAT_MAT5: .mat5,
            SF_FORMAT_PVF: .pvf, SF_FORMAT_XI: .xi,
            SF_FORMAT_HTK: .htk, SF_FORMAT_SDS: .sds,
            SF_FORMAT_AVR: .avr, SF_FORMAT_SD2: .sd2,
            SF_FORMAT_WVE: .wve, SF_FORMAT_MPC2K: .mpc2k,
        ]
        return table[major] ?? .other
    }

    private static func sampleFormat(subtype: Int) -> SampleFormat {
        switch subtype {
        case SF_FORMAT_PCM_S8: return .pcm(bits: 8, signed: true)
        case SF_FORMAT_PCM_U8: return .pcm(bits: 8, signed: false)
        case SF_FORMAT_PCM_16: return .pcm(bits: 16, signed: true)
        case SF_FORMAT_PCM_24: return .pcm(bits: 24, signed: true)
        case SF_FORMAT_PCM_32: return .pcm(bits: 32, signed: true)
        case SF_FORMAT_FLOAT: return .float(bits: 32)
        case SF_FORMAT_DOUBLE: return .float(bits: 64)
        case SF_FORMAT_ULAW: return .ulaw
        case SF_FORMAT_ALAW: return .alaw
        case SF_FORMAT_ALAC_16: return .lossless(codec: "alac", bits: 16)
        case SF_FORMAT_ALAC_20: return .lossless(codec: "alac", bits: 20)
        case SF_FORMAT_ALAC_24: return .lossless(codec: "alac", bits: 24)
        case SF_FORMAT_ALAC_32: return .lossless(codec: "alac", bits: 32)
        case SF_FORMAT_DPCM_8: return .lossless(codec: "dpcm", bits: 8)
        case SF_FORMAT_DPCM_16: return .lossless(codec: "dpcm", bits: 16)
        case SF_FORMAT_DWVW_12: return .lossless(codec: "dwvw", bits: 12)
        case SF_FORMAT_DWVW_16: return .lossless(codec: "dwvw", bits: 16)
        case SF_FORMAT_DWVW_24: return .lossless(codec: "dwvw", bits: 24)
        case SF_FORMAT_VORBIS: return .compressed(codec: "vorbis")
        case SF_FORMAT_OPUS: return .compressed(codec: "opus")
        case SF_FORMAT_MPEG_LAYER_I: return .compressed(codec: "mp1")
        case SF_FORMAT_MPEG_LAYER_II: return .compressed(codec: "mp2")
        case SF_FORMAT_MPEG_LAYER_III: return .compressed(codec: "mp3")
        case SF_FORMAT_IMA_ADPCM: return .compressed(codec: "ima_adpcm")
        case SF_FORMAT_MS_ADPCM: return .compressed(codec: "ms_adpcm")
        case SF_FORMAT_GSM610: return .compressed(codec: "gsm610")
        case SF_FORMAT_VOX_ADPCM: return .compressed(codec: "vox_adpcm")
        case SF_FORMAT_G721_32: return .compressed(codec: "g721_32")
        case SF_FORMAT_G723_24: return .compressed(codec: "g723_24")
        case SF_FORMAT_G723_40: return .compressed(codec: "g723_40")
        default: return .compressed(codec: "unknown")
        }
    }

    private static func metadata(of handle: OpaquePointer, library: SndFileLibrary) -> [MetadataEntry] {
        let keys: [(Int32, String)] = [
            (Int32(SF_STR_TITLE), "title"), (Int32(SF_STR_ARTIST), "artist"),
            (Int32(SF_STR_ALBUM), "album"), (Int32(SF_STR_TRACKNUMBER), "track_number"),
            (Int32(SF_STR_DATE), "date"), (Int32(SF_STR_GENRE), "genre"),
            (Int32(SF_STR_COMMENT), "comment"), (Int32(SF_STR_COPYRIGHT), "copyright"),
            (Int32(SF_STR_LICENSE), "license"), (Int32(SF_STR_SOFTWARE), "software"),
        ]
        return keys.compactMap { type, key in
            guard let value = library.getString(handle, type) else { return nil }
            let text = String(cString: value)  // invalid UTF-8 is repaired with U+FFFD
            return text.isEmpty ? nil : MetadataEntry(key: key, value: text)
        }
    }
}

// MARK: - Virtual I/O callbacks
// libsndfile calls these with the FileCursor passed (unretained) as user_data; SndFile keeps it alive.

private func cursor(_ userData: UnsafeMutableRawPointer?) -> FileCursor {
    Unmanaged<FileCursor>.fromOpaque(userData!).takeUnretainedValue()
}

private func sndFileLength(_ userData: UnsafeMutableRawPointer?) -> sf_count_t {
    cursor(userData).file.size
}

private func sndFileSeek(_ offset: sf_count_t, _ whence: Int32, _ userData: UnsafeMutableRawPointer?) -> sf_count_t {
    let cursor = cursor(userData)
    let base: Int64
    switch whence {
    case SEEK_SET: base = 0
    case SEEK_CUR: base = cursor.position
    case SEEK_END: base = cursor.file.size
    default: return -1
    }
    // As lseek: -1 for a position before the start or past Int64 (libsndfile skips a chunk by its
    // declared size, up to 2⁶³ − 1 in an RF64 ds64 chunk: the sum overflowed and trapped).
    let (target, overflow) = base.addingReportingOverflow(offset)
    guard !overflow, target >= 0 else { return -1 }
    cursor.seek(to: target)
    return cursor.position
}

private func sndFileRead(
    _ destination: UnsafeMutableRawPointer?, _ count: sf_count_t,
    _ userData: UnsafeMutableRawPointer?
) -> sf_count_t {
    guard count > 0 else { return 0 }
    return sf_count_t(cursor(userData).read(into: UnsafeMutableRawBufferPointer(start: destination, count: Int(count))))
}

private func sndFileWrite(_ source: UnsafeRawPointer?, _ count: sf_count_t, _ userData: UnsafeMutableRawPointer?) -> sf_count_t {
    0  // opened for reading only
}

private func sndFileTell(_ userData: UnsafeMutableRawPointer?) -> sf_count_t {
    cursor(userData).position
}

/// Writes a sound file through libsndfile, by path. The container follows the extension: `.wav`
/// (written as RF64 that becomes plain WAV when closed under 4 GB), `.rf64`, `.w64`, `.flac`,
/// `.caf`, `.aiff`. The header is rewritten after every write (`SFC_SET_UPDATE_HEADER_AUTO`), so
/// a process killed at any moment leaves a file that opens and holds everything written.
/// Not Sendable: one thread writes.
public final class SoundFileWriter {
    /// How samples are stored, and what `write` takes: Int16 for `pcm16`, Int32 (full-scale
    /// 32-bit, 24-bit data in the top bits) for `pcm24` and `pcm32`, Float for `float32`.
    public enum Encoding: String, Sendable, CaseIterable {
        case pcm16, pcm24, pcm32, float32

        public var bytesPerSample: Int { self == .pcm16 ? 2 : 4 }
    }

    public let path: String
    public let sampleRate: Int
    public let channels: Int
    public let encoding: Encoding
    public private(set) var framesWritten: Int64 = 0
    private let library: SndFileLibrary
    private var handle: OpaquePointer?

    /// The containers by extension.
    public static let extensions = ["wav", "rf64", "w64", "flac", "caf", "aiff", "aif"]

    /// The extension of `path`'s file name, lower case, when it names a container this writer
    /// makes; otherwise an error that says the extension picks the container and lists them.
    public static func containerExtension(of path: String) throws(SignalPathError) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        let choices = ".wav (RF64 past 4 GB), .rf64, .w64, .flac, .caf or .aiff"
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            throw .invalidRequest(path: path, reason: "no extension, and the extension picks the container: one of \(choices), as in take.wav")
        }
        let fileExtension = name[name.index(after: dot)...].lowercased()
        guard extensions.contains(fileExtension) else {
            throw .invalidRequest(path: path, reason: "cannot write '.\(fileExtension)' files: the extension picks the container, one of \(choices)")
        }
        return fileExtension
    }

    /// Creates `path` (which must not exist unless `overwrite`).
    public init(path: String, sampleRate: Int, channels: Int, encoding: Encoding, overwrite: Bool) throws(SignalPathError) {
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        self.encoding = encoding
        let fileExtension = try Self.containerExtension(of: path)
        let library = try SndFileLibrary.library()
        self.library = library
        let major: Int32
        switch fileExtension {
        case "wav", "rf64": major = Int32(SF_FORMAT_RF64)
        case "w64": major = Int32(SF_FORMAT_W64)
        case "flac": major = Int32(SF_FORMAT_FLAC)
        case "caf": major = Int32(SF_FORMAT_CAF)
        default: major = Int32(SF_FORMAT_AIFF)
        }
        let subtype: Int32 =
            switch encoding {
            case .pcm16: Int32(SF_FORMAT_PCM_16)
            case .pcm24: Int32(SF_FORMAT_PCM_24)
            case .pcm32: Int32(SF_FORMAT_PCM_32)
            case .float32: Int32(SF_FORMAT_FLOAT)
            }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = major | subtype
        guard library.formatCheck(&info) != 0 else {
            throw .invalidRequest(path: path, reason: "\(fileExtension.uppercased()) cannot hold \(encoding.rawValue) samples")
        }
        if !overwrite && access(path, F_OK) == 0 {
            throw .invalidRequest(path: path, reason: "the file exists; use --force to replace it")
        }
        errno = 0
        guard let opened = library.open(path, Int32(SFM_WRITE), &info) else {
            // libsndfile's own text ("System error : …") wraps the errno of its open(2).
            let code = errno
            guard code != 0 else { throw .invalidRequest(path: path, reason: "cannot create: \(SndFileLibrary.text(library.strerror(nil)))") }
            throw .cannotCreate(path: path, errno: code)
        }
        handle = opened
        _ = library.command(opened, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE))
        if fileExtension == "wav" { _ = library.command(opened, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE)) }
    }

    deinit { try? close() }

    /// Appends `frames` frames of interleaved samples in the encoding's type (see `Encoding`).
    /// - Throws: `.write` with the system's reason when not all could be written (disk full, a
    ///   file size limit); the file then holds every frame written before.
    public func write(_ samples: UnsafeRawBufferPointer, frames: Int) throws(SignalPathError) {
        guard let handle, frames > 0 else { return }
        precondition(samples.count >= frames * channels * encoding.bytesPerSample)
        errno = 0
        let written: sf_count_t =
            switch encoding {
            case .pcm16: library.writeFramesShort(handle, samples.baseAddress!.assumingMemoryBound(to: Int16.self), sf_count_t(frames))
            case .pcm24, .pcm32: library.writeFramesInt(handle, samples.baseAddress!.assumingMemoryBound(to: Int32.self), sf_count_t(frames))
            case .float32: library.writeFramesFloat(handle, samples.baseAddress!.assumingMemoryBound(to: Float.self), sf_count_t(frames))
            }
        let code = errno
        framesWritten += Int64(max(0, written))
        if written < frames { throw .write(path: path, errno: code != 0 ? code : EIO) }
    }

    /// Finishes the file (final header; a `.wav` under 4 GB becomes plain WAV).
    public func close() throws(SignalPathError) {
        guard let handle else { return }
        self.handle = nil
        errno = 0
        if library.close(handle) != 0 { throw .write(path: path, errno: errno != 0 ? errno : EIO) }
    }
}

/// libsndfile's functions, looked up once with `dlsym` after one `dlopen`. Linked, libsndfile and
/// the eight codec libraries it brings would cost every start
/// (docs/DECISIONS.md#libraries-on-first-use), though a WAV or RF64 of plain PCM and nothing else
/// is opened without it (`PCMLayout.holdsNothingElse`).
private struct SndFileLibrary: LazyLibrary, @unchecked Sendable {
    // @unchecked: C function pointers, immutable after loading; each SNDFILE is used by one thread.
    let open: sp_sf_open_fn
    let openVirtual: sp_sf_open_virtual_fn
    let close: sp_sf_close_fn
    let seek: sp_sf_seek_fn
    let readFramesFloat: sp_sf_readf_float_fn
    let writeFramesShort: sp_sf_writef_short_fn
    let writeFramesInt: sp_sf_writef_int_fn
    let writeFramesFloat: sp_sf_writef_float_fn
    let error: sp_sf_error_fn
    let errorNumber: sp_sf_error_number_fn
    let strerror: sp_sf_strerror_fn
    let command: sp_sf_command_fn
    let getString: sp_sf_get_string_fn
    let formatCheck: sp_sf_format_check_fn

    static let libraryName = "libsndfile.so.1"

    /// libsndfile's message text (never null in practice; empty if it were).
    static func text(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0) } ?? ""
    }

    static let loaded = load()
    static let need = "files other than plain PCM WAV need libsndfile (Debian: apt-get install libsndfile1)"

    init(_ library: SharedLibrary) throws(SignalPathError) {
        open = try library.function("sf_open", sp_sf_open_fn.self)
        openVirtual = try library.function("sf_open_virtual", sp_sf_open_virtual_fn.self)
        close = try library.function("sf_close", sp_sf_close_fn.self)
        seek = try library.function("sf_seek", sp_sf_seek_fn.self)
        readFramesFloat = try library.function("sf_readf_float", sp_sf_readf_float_fn.self)
        writeFramesShort = try library.function("sf_writef_short", sp_sf_writef_short_fn.self)
        writeFramesInt = try library.function("sf_writef_int", sp_sf_writef_int_fn.self)
        writeFramesFloat = try library.function("sf_writef_float", sp_sf_writef_float_fn.self)
        error = try library.function("sf_error", sp_sf_error_fn.self)
        errorNumber = try library.function("sf_error_number", sp_sf_error_number_fn.self)
        strerror = try library.function("sf_strerror", sp_sf_strerror_fn.self)
        command = try library.function("sf_command", sp_sf_command_fn.self)
        getString = try library.function("sf_get_string", sp_sf_get_string_fn.self)
        formatCheck = try library.function("sf_format_check", sp_sf_format_check_fn.self)
    }
}
